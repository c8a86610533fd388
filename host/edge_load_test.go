package host_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/workload"
)

// TestEdgeLoad is the bounded load test of issue 22, for CI: six clients,
// each its own user, on a sealed server taking base tags with two warm
// instances (so states are evicted all along), send records with client
// ids, units, slates and reads, by tag when they may and whole on 409,
// with deltas; an attacker meanwhile sends forged segments, foreign tags
// and gzip bombs. It fails on any lost update (an answer not based on the
// state its client held), any memory holding another user's events or
// units, any count that does not add up, and on the server's memory
// growing (its Go heap, and every instance's memory while held).
func TestEdgeLoad(t *testing.T) {
	const clients, steps = 6, 30
	srv, c := hostileServer(t, sealKey, host.EdgeOptions{BaseTag: true})
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	// A warm-up: the instances made, the module's first calls done.
	var warmup holder
	if _, err := warmup.call(srv.URL, "record", likes(2)); err != nil {
		t.Fatal(err)
	}
	heap0 := heap()
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, clients+1)
	stop := make(chan struct{})
	var attacks sync.Map // status -> count
	wg.Add(1)
	go func() { // the attacker
		defer wg.Done()
		var own holder
		if _, err := own.call(srv.URL, "record", likes(1)); err != nil {
			errs <- err
			return
		}
		seg, _ := workload.Segment(own.bin, nil)
		bomb := host.PackState(make([]byte, 4<<20))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			var req host.EdgeRequest
			switch i % 3 {
			case 0:
				// Its own state made warm again (whole), then an unsealed
				// segment on it: 422, or 409 when evicted in between.
				if code, _, msg, err := edgeCall(srv.URL+"/v1/get_memory", host.EdgeRequest{State: host.PackState(own.bin), Tag: own.tag, Input: json.RawMessage(`{}`)}); err != nil || code != 200 {
					errs <- fmt.Errorf("the attacker's own state: %d %s %v", code, msg, err)
					return
				}
				req = host.EdgeRequest{BaseTag: own.tag, Delta: host.EdgeDelta{Segment: host.PackState(seg)}}
			case 1:
				req = host.EdgeRequest{BaseTag: fmt.Sprintf("hmac-sha256:%064x", i)}
			case 2:
				req = host.EdgeRequest{State: bomb, Tag: own.tag}
			}
			req.Input = json.RawMessage(`{}`)
			code, _, _, err := edgeCall(srv.URL+"/v1/get_memory", req)
			if err != nil {
				errs <- err
				return
			}
			n, _ := attacks.LoadOrStore(code, new(int))
			*(n.(*int))++
			if code == 200 {
				errs <- fmt.Errorf("an attack was served (%d)", i%3)
				return
			}
		}
	}()
	var mu sync.Mutex
	served := map[string]int{"by tag": 0, "resent": 0}
	for k := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("user%d", k)
			var h holder
			signals, units := 0, 0
			for i := range steps {
				var export, in string
				switch i % 5 {
				case 0, 3:
					export = "record"
					in = fmt.Sprintf(`{"signals":[{"user":%q,"item":"%s-i%d","action":"like","meta":{"genre":["G%d"]},"time":%d,"client_id":"%s-%d"}]}`, user, user, i, k, 1700000000+i, user, i)
					signals++
				case 1:
					export = "add_units"
					in = fmt.Sprintf(`{"units":[{"id":"%s-u%d","session":"%s-s","speaker":%q,"text":"%s says the kiln needs %d shelves"}]}`, user, i, user, user, user, i)
					units++
				case 2:
					export, in = "select_slate", `{"query":"how many shelves does the kiln need","budget":200}`
				case 4:
					export, in = "get_memory", `{}`
				}
				before, resends := h.tag, h.resends
				r, err := h.call(srv.URL, export, []byte(in))
				if err != nil {
					errs <- fmt.Errorf("%s step %d: %w", user, i, err)
					return
				}
				if before != "" && r.BaseTag != before {
					errs <- fmt.Errorf("%s step %d: a lost update: answered from %s, the client held %s", user, i, r.BaseTag, before)
					return
				}
				mu.Lock()
				if h.resends > resends {
					served["resent"]++
				} else {
					served["by tag"]++
				}
				mu.Unlock()
			}
			// The memory holds exactly this user's signals and units.
			code, doc, msg, err := edgeCall(srv.URL+"/v1/export_state", host.EdgeRequest{State: host.PackState(h.bin), Tag: h.tag, Format: "json"})
			if err != nil || code != 200 {
				errs <- fmt.Errorf("%s: the JSON form: %d %s %v", user, code, msg, err)
				return
			}
			js, _ := host.UnpackState(doc.State, 1<<30)
			var d struct {
				Memory struct {
					Events   []struct{ User string }
					Counters struct {
						NextEvent int `json:"next_event"`
					}
				}
				Units []struct{ ID string }
			}
			json.Unmarshal(js, &d)
			if d.Memory.Counters.NextEvent != signals+1 || len(d.Units) != units {
				errs <- fmt.Errorf("%s: %d signals and %d units recorded, the memory says %d and %d", user, signals, units, d.Memory.Counters.NextEvent-1, len(d.Units))
			}
			for _, e := range d.Memory.Events {
				if e.User != user {
					errs <- fmt.Errorf("%s: holds an event of %s", user, e.User)
				}
			}
			for _, u := range d.Units {
				if !strings.HasPrefix(u.ID, user+"-") {
					errs <- fmt.Errorf("%s: holds the unit %s", user, u.ID)
				}
			}
		}()
	}
	// Wait for the clients, then stop the attacker.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			time.Sleep(50 * time.Millisecond)
			select {
			case err := <-errs:
				t.Error(err)
			default:
			}
			mu.Lock()
			n := served["by tag"] + served["resent"]
			mu.Unlock()
			if n >= clients*steps {
				close(stop)
				return
			}
		}
	}()
	<-done
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	took := time.Since(t0)
	grew := int64(heap()) - int64(heap0)
	u := c.Usage()
	codes := map[any]int{}
	attacks.Range(func(k, v any) bool { codes[k] = *(v.(*int)); return true })
	t.Logf("%d clients x %d steps in %v: %v; attacks answered %v; the Go heap grew %.1f MB, an instance at most %.1f MB while held (held at most %v); warm %+v",
		clients, steps, took.Round(time.Millisecond), served, codes, float64(grew)/1e6, float64(u.LargestGrowth)/1e6, u.LongestHold.Round(time.Millisecond), c.WarmStats())
	if served["by tag"] == 0 || served["resent"] == 0 {
		t.Errorf("the load served %v: want requests by tag and resent after evictions", served)
	}
	if grew > 32<<20 {
		t.Errorf("the server's Go heap grew %d bytes", grew)
	}
	if u.LargestGrowth > 64<<20 {
		t.Errorf("an instance grew %d bytes while held", u.LargestGrowth)
	}
	if codes[http.StatusUnprocessableEntity] == 0 || codes[http.StatusConflict] == 0 || codes[http.StatusRequestEntityTooLarge] == 0 {
		t.Errorf("the attacks were answered %v: want 422, 409 and 413", codes)
	}
}
