package memory

import (
	"encoding/json"
	"strings"
	"testing"
)

func opsLine(ops []Op) string {
	var l []string
	for _, o := range ops {
		x := o.Op
		if o.Chunk != "" {
			x += " " + o.Chunk
		}
		if len(o.Chunks) > 0 {
			x += " " + strings.Join(o.Chunks, ",")
		}
		l = append(l, x)
	}
	return strings.Join(l, "; ")
}

func TestFixedScheduler(t *testing.T) {
	s := New(Config{})
	if _, err := s.Record([]Signal{view("a", 1), view("b", 2), view("c", 3)}, nil, Policy{}); err != nil {
		t.Fatal(err)
	}
	d, err := s.Plan(3, Fixed{}, false, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != "wait" || d.Reason != "3 pending signals, below the batch size 5" || len(d.Ops) != 0 {
		t.Errorf("below batch: %+v", d)
	}
	d, _ = s.Plan(3, Fixed{}, true, Policy{})
	if d.Decision != "maintain" || d.Reason != "forced with 3 pending signals (batch size 5)" || opsLine(d.Ops) != "extract" {
		t.Errorf("forced: %+v", d)
	}
	if _, err := s.Record([]Signal{view("d", 4), view("e", 5)}, nil, Policy{}); err != nil {
		t.Fatal(err)
	}
	m, err := s.Maintain(5, Fixed{}, false, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Decision != "maintain" || m.Reason != "5 pending signals reached the batch size 5" || len(m.Ops) != 1 || m.Ops[0].Trigger != "scheduler" {
		t.Errorf("at batch: %+v", m)
	}
	m, _ = s.Maintain(5, Fixed{}, true, Policy{})
	if m.Decision != "wait" || m.Reason != "forced with 0 pending signals (batch size 5); nothing to extract, merge or forget" {
		t.Errorf("forced with nothing to do: %+v", m)
	}
}

func TestHeuristicPlanner(t *testing.T) {
	t.Run("contradiction, duplicates, forget, profile", func(t *testing.T) {
		s := fixture(t)
		before := encode(t, s)
		d, err := s.Plan(1000, Heuristic{}, false, Policy{})
		if err != nil {
			t.Fatal(err)
		}
		if encode(t, s) != before {
			t.Fatal("Plan changed the state")
		}
		want := `pending dislike e2 contradicts strong chunk c1 "Enjoys RPG" (0.7); 1 near-duplicate group to merge; 1 chunk to forget; profile never built`
		if d.Decision != "maintain" || d.Reason != want {
			t.Errorf("decision %s: %s", d.Decision, d.Reason)
		}
		if got := opsLine(d.Ops); got != "extract; merge c3,c4; forget c2; synthesize" {
			t.Errorf("ops %s", got)
		}
		m, err := s.Maintain(1000, Heuristic{}, false, Policy{})
		if err != nil {
			t.Fatal(err)
		}
		var ops []string
		for _, e := range m.Ops {
			ops = append(ops, e.Op+"/"+e.Trigger)
		}
		if got := strings.Join(ops, " "); got != "demote/planner extract/planner merge/planner forget/planner synthesize/planner" {
			t.Errorf("applied %s", got)
		}
		if err := s.Validate(); err != nil {
			t.Error(err)
		}
	})
	t.Run("stale pending and stale chunks", func(t *testing.T) {
		s := New(Config{})
		if _, err := s.Record([]Signal{view("a", 0)}, nil, Policy{}); err != nil {
			t.Fatal(err)
		}
		d, _ := s.Plan(6*day, Heuristic{}, false, Policy{})
		if d.Decision != "wait" || d.Reason != "1 pending signal (batch size 5), none contradicting a strong chunk, oldest 6 days old (stale after 7 days); nothing to merge, demote or forget; profile current" {
			t.Errorf("fresh: %+v", d)
		}
		d, _ = s.Plan(8*day, Heuristic{}, false, Policy{})
		if d.Reason != "oldest pending signal e1 is 8 days old (stale after 7 days)" || opsLine(d.Ops) != "extract" {
			t.Errorf("stale pending: %+v", d)
		}
		s = fixture(t)
		d, _ = s.Plan(1000+91*day, Heuristic{}, false, Policy{})
		b, _ := json.Marshal(d.Ops)
		if !strings.Contains(string(b), `{"op":"demote","chunk":"c1","reason":"not seen for 91 days (stale after 90 days)"}`) {
			t.Errorf("stale chunk: %s", b)
		}
	})
}
