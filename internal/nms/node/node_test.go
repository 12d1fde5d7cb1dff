package node

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// On Linux the sample holds what /proc tells.
func TestReadOS(t *testing.T) {
	s := ReadOS()
	if s.CPUs != runtime.NumCPU() || s.Hostname == "" || len(s.Addresses) == 0 {
		t.Fatalf("sample = %+v", s)
	}
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc")
	}
	if s.MemTotalKB <= 0 || s.MemAvailKB <= 0 || s.MemAvailKB > s.MemTotalKB || s.CPUTotal <= s.CPUBusy || s.UptimeSec <= 0 {
		t.Errorf("figures from /proc = %+v", s)
	}
	if s.DiskPercent < 0 || s.DiskPercent > 100 {
		t.Errorf("disk = %d%%", s.DiskPercent)
	}
}

// The figures of a document: CPU use between two samples, memory use,
// traffic in KiB, the running time by the clock.
func TestDocument(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	prev := Sample{CPUBusy: 100, CPUTotal: 1000}
	s := Sample{Hostname: "h", Addresses: []string{"10.0.0.1", "::1"}, CPUBusy: 400, CPUTotal: 2000, MemTotalKB: 2000,
		MemAvailKB: 500, NetInBytes: 10 << 10, NetOutBytes: 3 << 10, DiskPercent: 12}
	cfg := Config{}.withDefaults(s)
	d := Document(cfg, Moid("node:h"), s, prev, start, start.Add(90*time.Second))
	for k, c := range map[string][2]any{"cpu": {d.CPU, 30}, "memory": {d.Memory, 75}, "portin": {d.Portin, int64(10)},
		"portout": {d.Portout, int64(3)}, "disk": {d.Disk, 12}, "run_time": {d.RunTime, int64(90)}, "ip": {d.IP, "10.0.0.1;::1;"},
		"name": {d.Name, "h"}, "port": {d.Port, DefaultPort}, "machine_room_moid": {d.MachineRoomMoid, DefaultMachineRoomMoid}} {
		if c[0] != c[1] {
			t.Errorf("%s = %v (%T), want %v", k, c[0], c[0], c[1])
		}
	}
	if Moid("node:h") != Moid("node:h") || Moid("node:h") == Moid("node:g") || len(GUID(Moid("x"))) != 32 {
		t.Errorf("moids are not stable and distinct")
	}
}
