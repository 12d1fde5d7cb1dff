package node

import (
	"bufio"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Sample is what the operating system tells about the machine at one
// moment. On Linux it comes from /proc (stat, meminfo, uptime, net/dev)
// and statfs; elsewhere the fields /proc would give stay zero.
type Sample struct {
	Hostname    string
	Addresses   []string // the machine's unicast addresses, IPv4 first, loopback last
	CPUs        int
	OS          string // e.g. "linux/amd64 Ubuntu 24.04 LTS"
	MemTotalKB  int64
	MemAvailKB  int64
	CPUBusy     int64 // jiffies spent busy since boot (all CPUs)
	CPUTotal    int64 // jiffies since boot (all CPUs)
	UptimeSec   int64 // machine uptime
	NetInBytes  int64 // received on every interface but loopback
	NetOutBytes int64
	DiskPercent int // use of the file system holding the node's data; -1 unknown
}

// Sampler reads a Sample.
type Sampler func() Sample

// ReadOS samples the operating system; the disk use is that of the file
// system holding the working directory.
func ReadOS() Sample { return ReadOSAt(".") }

// ReadOSAt samples the operating system with the disk use of the file
// system holding path (the node's data).
func ReadOSAt(path string) Sample {
	s := Sample{CPUs: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH, DiskPercent: -1}
	s.Hostname, _ = os.Hostname()
	s.Addresses = addresses()
	if name := osRelease(); name != "" {
		s.OS += " " + name
	}
	s.MemTotalKB, s.MemAvailKB = meminfo()
	s.CPUBusy, s.CPUTotal = cpuStat()
	s.UptimeSec = uptime()
	s.NetInBytes, s.NetOutBytes = netDev()
	s.DiskPercent = diskPercent(path)
	return s
}

func addresses() []string {
	ifs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var v4, v6, loop []string
	for _, a := range ifs {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLinkLocalUnicast() || ipn.IP.IsMulticast() {
			continue
		}
		switch {
		case ipn.IP.IsLoopback():
			loop = append(loop, ipn.IP.String())
		case ipn.IP.To4() != nil:
			v4 = append(v4, ipn.IP.String())
		default:
			v6 = append(v6, ipn.IP.String())
		}
	}
	return append(append(v4, v6...), loop...)
}

// osRelease returns PRETTY_NAME of /etc/os-release.
func osRelease() string {
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

func meminfo() (total, avail int64) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(fs[1], 10, 64)
		switch fs[0] {
		case "MemTotal:":
			total = n
		case "MemAvailable:":
			avail = n
		}
	}
	return total, avail
}

// cpuStat reads the first line of /proc/stat: user nice system idle iowait
// irq softirq steal ...; idle and iowait are not busy.
func cpuStat() (busy, total int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	fs := strings.Fields(line)
	if len(fs) < 5 || fs[0] != "cpu" {
		return 0, 0
	}
	for i, f := range fs[1:] {
		if i >= 8 { // guest time is already counted in user
			break
		}
		n, _ := strconv.ParseInt(f, 10, 64)
		total += n
		if i != 3 && i != 4 {
			busy += n
		}
	}
	return busy, total
}

func uptime() int64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	v, _ := strconv.ParseFloat(f, 64)
	return int64(v)
}

// netDev sums the byte counters of /proc/net/dev without loopback.
func netDev() (in, out int64) {
	f, err := os.Open("/proc/net/dev")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(name) == "lo" {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) < 9 {
			continue
		}
		rx, _ := strconv.ParseInt(fs[0], 10, 64)
		tx, _ := strconv.ParseInt(fs[8], 10, 64)
		in += rx
		out += tx
	}
	return in, out
}
