package mediaload

import (
	"fmt"
	"io"
	"time"
)

// Print writes a report for people, one figure a line.
func Print(w io.Writer, r *Report) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	fmt.Fprintf(w, "target            %s\n", r.Target)
	fmt.Fprintf(w, "publishers        %d (request to connected p50 %s)\n", r.Publishers, ms(r.PublishConnectedP50))
	fmt.Fprintf(w, "subscribers       %d joined, %d join errors, %d tracks, %d without a packet\n", r.Subscribers, r.JoinErrors, r.Tracks, r.NoPacket)
	if r.FirstError != "" {
		fmt.Fprintf(w, "first error       %s\n", r.FirstError)
	}
	fmt.Fprintf(w, "window            %.1f s\n", r.Window.Seconds())
	fmt.Fprintf(w, "packets/s         %.0f received by subscribers (%d in the window; %.0f/s expected)\n", r.PacketsPerSec, r.Packets, r.ExpectedPacketsPerSec)
	fmt.Fprintf(w, "frames sent/s     %.1f (nominal %.1f)\n", r.SentFramesPerSec, r.NominalFramesPerSec)
	fmt.Fprintf(w, "lost              %d in the window (%.4f %%), %d since the first packets\n", r.Lost, pct(r.Lost, r.Packets+r.Lost), r.LostTotal)
	fmt.Fprintf(w, "UDP drops         %d datagrams at full receive buffers on the host: %d at the server's sockets, %d at the generator's\n",
		r.UDPRcvbufErrors, r.ServerUDPDrops, r.GeneratorUDPDrops)
	if r.ServerCPU > 0 {
		fmt.Fprintf(w, "server CPU        %.3f cores (%.2f s)\n", r.ServerCores, r.ServerCPU.Seconds())
		fmt.Fprintf(w, "packets/CPU-s     %.0f\n", r.PacketsPerCPUSecond)
		fmt.Fprintf(w, "per subscriber    %.5f cores, %.1f KiB\n", r.CPUPerSubscriber, float64(r.RSSPerSubscriber)/1024)
		fmt.Fprintf(w, "server RSS        %.1f MiB before subscribers, %.1f MiB at the end\n", mib(r.ServerRSSBefore), mib(r.ServerRSS))
	}
	fmt.Fprintf(w, "generator CPU     %.3f cores in %d processes\n", r.GeneratorCores, r.GeneratorProcs)
	fmt.Fprintf(w, "join to 1st pkt   p50 %s, p99 %s, max %s\n", ms(r.JoinFirstP50), ms(r.JoinFirstP99), ms(r.JoinFirstMax))
	fmt.Fprintf(w, "  of which        answer p50 %s, p99 %s; connected p50 %s, p99 %s\n", ms(r.JoinAnswerP50), ms(r.JoinAnswerP99), ms(r.JoinConnectedP50), ms(r.JoinConnectedP99))
	fmt.Fprintf(w, "load average      %s before, %s after\n", r.LoadBefore, r.LoadAfter)
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// TSVHeader and TSV are a report as one tab-separated line, for scripts.
const TSVHeader = "target\tpublishers\tsubscribers\ttracks\tpackets_per_s\texpected_per_s\tpackets_per_cpu_s\tserver_cores\tgenerator_cores\tlost\tjoin_errors\tno_packet\tjoin_p50_ms\tjoin_p99_ms\tcpu_per_sub\trss_per_sub_kib\tsent_per_s\tnominal_per_s\tload_before\tload_after\tgenerator_procs\tudp_rcvbuf_errors\tserver_udp_drops\tgenerator_udp_drops\tanswer_p50_ms\tanswer_p99_ms\tconnected_p50_ms\tconnected_p99_ms"

// TSV is the line of TSVHeader's columns.
func TSV(r *Report) string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }
	return fmt.Sprintf("%s\t%d\t%d\t%d\t%.0f\t%.0f\t%.0f\t%.3f\t%.3f\t%d\t%d\t%d\t%s\t%s\t%.5f\t%.1f\t%.1f\t%.1f\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s",
		r.Target, r.Publishers, r.Subscribers, r.Tracks, r.PacketsPerSec, r.ExpectedPacketsPerSec, r.PacketsPerCPUSecond, r.ServerCores, r.GeneratorCores,
		r.Lost, r.JoinErrors, r.NoPacket, ms(r.JoinFirstP50), ms(r.JoinFirstP99), r.CPUPerSubscriber, float64(r.RSSPerSubscriber)/1024,
		r.SentFramesPerSec, r.NominalFramesPerSec, r.LoadBefore, r.LoadAfter, r.GeneratorProcs, r.UDPRcvbufErrors, r.ServerUDPDrops, r.GeneratorUDPDrops,
		ms(r.JoinAnswerP50), ms(r.JoinAnswerP99), ms(r.JoinConnectedP50), ms(r.JoinConnectedP99))
}
