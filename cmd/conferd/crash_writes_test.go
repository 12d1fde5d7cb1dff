package main

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/testserver"
)

// The crash test's writes and checks (crash_test.go).

// crashReg holds per object its last acknowledged value and the value of
// the write in flight at the last kill, which may have committed
// unacknowledged.
type crashReg struct{ acked, inFlight map[string]string }

// settle takes the value read after a restart: the acknowledged one or
// the one in flight, which becomes the acknowledged one.
func (g crashReg) settle(what, id, got string) error {
	if v, ok := g.inFlight[id]; got != g.acked[id] && (!ok || got != v) {
		return fmt.Errorf("%s %s is %q after SIGKILL, want the acknowledged %q (in flight: %q)", what, id, got, g.acked[id], v)
	}
	g.acked[id] = got
	delete(g.inFlight, id)
	return nil
}

const crashGone = "(deleted)" // a template's value once deleted

// crashLog is what the writers had acknowledged, and how many writes of
// each kind.
type crashLog struct {
	t         *testing.T
	mu        sync.Mutex
	templates crashReg            // template_id → name, or crashGone
	speakers  crashReg            // conf_id → speaker mt_id
	confs     map[string]bool     // conf_id → creation acknowledged
	added     map[string][]string // conf_id → terminal accounts acknowledged
	own       []string            // each renaming worker's template
	spk, add  []string            // the speaker changes' and additions' conferences
	next      []int               // each adding worker's next terminal

	acks               map[string]int // kind → acknowledged writes
	sent, cut, refused int
	firstRefusal       string
}

func newCrashLog(t *testing.T) *crashLog {
	return &crashLog{t: t,
		templates: crashReg{map[string]string{}, map[string]string{}},
		speakers:  crashReg{map[string]string{}, map[string]string{}},
		confs:     map[string]bool{}, added: map[string][]string{}, acks: map[string]int{}}
}

func (lg *crashLog) total() (n int) {
	for _, v := range lg.acks {
		n += v
	}
	return n
}

// prepare creates the renaming workers' templates, the conferences whose
// speaker changes (three terminals each) and those that get terminals,
// and waits for the speakers' terminals to be online.
func (lg *crashLog) prepare(c *crashClient) {
	t := lg.t
	kinds := map[string]int{}
	for _, k := range crashKinds {
		kinds[k.kind] = k.workers
	}
	lg.own = make([]string, kinds["rename"])
	lg.spk = make([]string, kinds["speaker"])
	lg.add = make([]string, kinds["add"])
	lg.next = make([]int, kinds["add"])
	var wg sync.WaitGroup
	do := func(f func()) { wg.Add(1); go func() { defer wg.Done(); f() }() }
	for n := range lg.own {
		do(func() {
			name := fmt.Sprintf("own-%d", n)
			r, err := c.call("POST", "/api/v1/mc/personal_templates", crashParams(testserver.Template(name)))
			if !crashOK(r, err) {
				t.Errorf("template to rename: %v %v", r, err)
				return
			}
			lg.mu.Lock()
			lg.own[n] = r["template_id"].(string)
			lg.templates.acked[lg.own[n]] = name
			lg.mu.Unlock()
		})
	}
	conf := func(into []string, n int, name string, maxJoin int, accounts ...string) {
		do(func() {
			r, err := c.call("POST", "/api/v1/mc/confs", crashParams(crashConf(name, maxJoin, accounts...)))
			if !crashOK(r, err) {
				t.Errorf("conference %s: %v %v", name, r, err)
				return
			}
			id := r["conf_id"].(string)
			lg.mu.Lock()
			into[n] = id
			lg.confs[id] = true
			lg.mu.Unlock()
		})
	}
	for n := range lg.spk {
		conf(lg.spk, n, fmt.Sprintf("speakers-%d", n), 8, fmt.Sprintf("10.1.%d.1", n), fmt.Sprintf("10.1.%d.2", n), fmt.Sprintf("10.1.%d.3", n))
	}
	for n := range lg.add {
		conf(lg.add, n, fmt.Sprintf("additions-%d", n), 192, fmt.Sprintf("10.2.%d.1", n))
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for _, id := range lg.spk { // invited terminals answer after 2 s
		lg.speakers.acked[id] = "" // no speaker yet
		for try := 0; ; try++ {
			r, err := c.call("GET", "/api/v1/vc/confs/"+id+"/mts", nil)
			online := 0
			if crashOK(r, err) {
				for _, m := range r["mts"].([]any) {
					if m.(map[string]any)["online"] == float64(1) {
						online++
					}
				}
			}
			if online == 3 {
				break
			}
			if try == 600 {
				t.Fatalf("conference %s: terminals not online after 2 minutes: %v %v", id, r, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// crashWorker is one writer of one kind during one cycle.
type crashWorker struct {
	kind     string
	n, cycle int
	tmpl     string // delete: the template created to be deleted next
}

// loop writes until the process is gone (or a write is refused).
func (lg *crashLog) loop(c *crashClient, w *crashWorker) {
	for i := 0; ; i++ {
		kind, r, err := lg.write(c, w, i)
		if kind == "" {
			return
		}
		lg.mu.Lock()
		lg.sent++
		switch {
		case crashOK(r, err):
			lg.acks[kind]++
		case err != nil:
			lg.cut++
		default:
			lg.refused++
			if lg.firstRefusal == "" {
				lg.firstRefusal = fmt.Sprintf("%s: %v", kind, r)
			}
		}
		lg.mu.Unlock()
		if !crashOK(r, err) {
			return
		}
	}
}

// write sends worker w's i-th write, marking what it puts in flight and
// recording what is acknowledged; kind "" when the worker has no more.
func (lg *crashLog) write(c *crashClient, w *crashWorker, i int) (string, map[string]any, error) {
	switch w.kind {
	case "template":
		_, r, err := lg.createTemplate(c, fmt.Sprintf("c%d-t%d-%d", w.cycle, w.n, i))
		return "template", r, err
	case "rename":
		id, name := lg.own[w.n], fmt.Sprintf("c%d-r%d-%d", w.cycle, w.n, i)
		r, err := lg.send(&lg.templates, id, name, func() (map[string]any, error) {
			return c.call("POST", "/api/v1/mc/personal_templates/"+id, crashParams(testserver.Template(name)))
		})
		return "rename", r, err
	case "delete": // create a template, then delete it
		if w.tmpl == "" {
			id, r, err := lg.createTemplate(c, fmt.Sprintf("c%d-d%d-%d", w.cycle, w.n, i))
			w.tmpl = id
			return "template", r, err
		}
		id := w.tmpl
		w.tmpl = ""
		r, err := lg.send(&lg.templates, id, crashGone, func() (map[string]any, error) {
			return c.call("DELETE", "/api/v1/mc/personal_templates/"+id, nil)
		})
		return "delete", r, err
	case "conf":
		if i >= 250 {
			return "", nil, nil
		}
		name := fmt.Sprintf("c%d-m%d-%d", w.cycle, w.n, i)
		r, err := c.call("POST", "/api/v1/mc/confs", crashParams(crashConf(name, 8, fmt.Sprintf("10.%d.%d.%d", 100+w.cycle, w.n, i+1))))
		if crashOK(r, err) {
			id, _ := r["conf_id"].(string)
			lg.mu.Lock()
			if lg.confs[id] {
				lg.t.Errorf("conf_id %q acknowledged twice", id)
			}
			lg.confs[id] = true
			lg.mu.Unlock()
		}
		return "conf", r, err
	case "speaker": // the next of the three terminals
		id := lg.spk[w.n]
		lg.mu.Lock()
		cur, _ := strconv.Atoi(lg.speakers.acked[id])
		lg.mu.Unlock()
		mt := strconv.Itoa(cur%3 + 1)
		r, err := lg.send(&lg.speakers, id, mt, func() (map[string]any, error) {
			return c.call("PUT", "/api/v1/vc/confs/"+id+"/speaker", crashParams(map[string]any{"mt_id": mt}))
		})
		return "speaker", r, err
	case "add":
		id, k := lg.add[w.n], lg.next[w.n]
		if k >= 190 { // max_join_mt 192
			return "", nil, nil
		}
		lg.next[w.n]++
		acct := fmt.Sprintf("10.3.%d.%d", w.n, k+1)
		r, err := c.call("POST", "/api/v1/vc/confs/"+id+"/mts", crashParams(map[string]any{"mts": []any{
			map[string]any{"account": acct, "account_type": 7, "bitrate": 1024, "protocol": 0}}}))
		if crashOK(r, err) {
			lg.mu.Lock()
			lg.added[id] = append(lg.added[id], acct)
			lg.mu.Unlock()
		}
		return "add", r, err
	}
	panic("unknown kind " + w.kind)
}

// send marks value in flight for object id of g, sends, and records the
// value when acknowledged.
func (lg *crashLog) send(g *crashReg, id, value string, do func() (map[string]any, error)) (map[string]any, error) {
	lg.mu.Lock()
	g.inFlight[id] = value
	lg.mu.Unlock()
	r, err := do()
	if crashOK(r, err) {
		lg.mu.Lock()
		g.acked[id] = value
		delete(g.inFlight, id)
		lg.mu.Unlock()
	}
	return r, err
}

func (lg *crashLog) createTemplate(c *crashClient, name string) (string, map[string]any, error) {
	r, err := c.call("POST", "/api/v1/mc/personal_templates", crashParams(testserver.Template(name)))
	if !crashOK(r, err) {
		return "", r, err
	}
	id, _ := r["template_id"].(string)
	lg.mu.Lock()
	if _, dup := lg.templates.acked[id]; dup {
		lg.t.Errorf("template_id %q acknowledged twice (%s, %s)", id, lg.templates.acked[id], name)
	}
	lg.templates.acked[id] = name
	lg.mu.Unlock()
	return id, r, err
}

// check reads back every acknowledged write after a restart, 16 reads at
// a time.
func (lg *crashLog) check(c *crashClient) {
	t := lg.t
	var jobs []func() error
	for id := range lg.templates.acked {
		jobs = append(jobs, func() error {
			r, err := c.call("GET", "/api/v1/mc/personal_templates/"+id, nil)
			got, _ := r["name"].(string)
			switch {
			case err != nil:
				return err
			case r["success"] == float64(0) && r["error_code"] == float64(mc.CodeTemplateNotFound):
				got = crashGone
			case r["success"] != float64(1):
				return fmt.Errorf("template %s: %v", id, r)
			}
			lg.mu.Lock()
			defer lg.mu.Unlock()
			return lg.templates.settle("template", id, got)
		})
	}
	for id := range lg.confs {
		jobs = append(jobs, func() error {
			if r, err := c.call("GET", "/api/v1/vc/confs/"+id, nil); !crashOK(r, err) {
				return fmt.Errorf("acknowledged conference %s not running after SIGKILL: %v %v", id, r, err)
			}
			return nil
		})
	}
	for _, id := range lg.spk {
		jobs = append(jobs, func() error {
			r, err := c.call("GET", "/api/v1/vc/confs/"+id+"/speaker", nil)
			if !crashOK(r, err) {
				return fmt.Errorf("speaker of %s: %v %v", id, r, err)
			}
			got, _ := r["mt_id"].(string)
			lg.mu.Lock()
			defer lg.mu.Unlock()
			return lg.speakers.settle("speaker of conference", id, got)
		})
	}
	for _, id := range lg.add {
		jobs = append(jobs, func() error {
			r, err := c.call("GET", "/api/v1/vc/confs/"+id+"/mts", nil)
			if !crashOK(r, err) {
				return fmt.Errorf("terminals of %s: %v %v", id, r, err)
			}
			have := map[string]bool{}
			for _, m := range r["mts"].([]any) {
				have[fmt.Sprint(m.(map[string]any)["account"])] = true
			}
			for _, acct := range lg.added[id] {
				if !have[acct] {
					return fmt.Errorf("acknowledged terminal %s of conference %s lost after SIGKILL (%d listed)", acct, id, len(have))
				}
			}
			return nil
		})
	}
	next := make(chan func() error)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range next {
				if err := job(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for _, job := range jobs {
		next <- job
	}
	close(next)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// crashConf is an instant conference without end inviting terminals by IP
// address (which answer after 2 s).
func crashConf(name string, maxJoin int, accounts ...string) map[string]any {
	var members []any
	for i, a := range accounts {
		members = append(members, map[string]any{"name": fmt.Sprint("m", i+1), "account": a, "account_type": 7, "bitrate": 1024, "protocol": 0})
	}
	return map[string]any{"create_type": 1, "name": name, "bitrate": 1024, "max_join_mt": maxJoin, "duration": 0,
		"call_mode": 2, "call_times": 3, "call_interval": 20, "invite_members": members,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
}
