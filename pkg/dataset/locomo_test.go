package dataset

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

const locomoTiny = `[{"sample_id":"conv-x","conversation":{
 "speaker_a":"Ann","speaker_b":"Bob",
 "session_2_date_time":"9:00 am on 10 May, 2023",
 "session_2":[{"speaker":"Bob","dia_id":"D2:1","text":"Moved to Thursdays."}],
 "session_1_date_time":"1:56 pm on 8 May, 2023",
 "session_1":[{"speaker":"Ann","dia_id":"D1:1","text":"Pottery on Tuesdays.","img_url":["x"],"blip_caption":"a clay pot"},
              {"speaker":"Bob","dia_id":"D1:2","text":"Nice!"}]},
 "qa":[{"question":"Which day?","answer":"Thursday","evidence":["D2:1; D1:1","D1:1"],"category":1},
       {"question":"Year?","answer":2023,"evidence":["D","D:11:26","D30:05"],"category":2},
       {"question":"Trick?","adversarial_answer":"none","evidence":["D1:2 D2:1"],"category":5}]}]`

func TestReadLoCoMoQuirks(t *testing.T) {
	cs, err := ReadLoCoMo(strings.NewReader(locomoTiny))
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	wantTurns := []Turn{
		{ID: "D1:1", Session: "S1", Date: "1:56 pm on 8 May, 2023", Time: "2023-05-08T13:56:00Z", Speaker: "Ann", Text: "Pottery on Tuesdays. [image: a clay pot]"},
		{ID: "D1:2", Session: "S1", Date: "1:56 pm on 8 May, 2023", Time: "2023-05-08T13:56:00Z", Speaker: "Bob", Text: "Nice!"},
		{ID: "D2:1", Session: "S2", Date: "9:00 am on 10 May, 2023", Time: "2023-05-10T09:00:00Z", Speaker: "Bob", Text: "Moved to Thursdays."},
	}
	if !reflect.DeepEqual(c.Turns, wantTurns) {
		t.Errorf("turns\n got %+v\nwant %+v", c.Turns, wantTurns)
	}
	if !reflect.DeepEqual(c.Speakers, []string{"Ann", "Bob"}) {
		t.Errorf("speakers %q", c.Speakers)
	}
	q := c.Questions
	if !reflect.DeepEqual(q[0].Evidence, []string{"D1:1", "D2:1"}) || c.Sessions(q[0]) != 2 {
		t.Errorf("q0 evidence %q, κ=%d", q[0].Evidence, c.Sessions(q[0]))
	}
	if len(q[1].Evidence) != 0 || q[1].Answer != "2023" || q[1].Category != "2" {
		t.Errorf("q1 = %+v", q[1])
	}
	if q[2].Answer != "none" || !reflect.DeepEqual(q[2].Evidence, []string{"D1:2", "D2:1"}) {
		t.Errorf("q2 = %+v", q[2])
	}
	if q[0].Date != "2023-05-10T09:00:00Z" {
		t.Errorf("question date %q", q[0].Date)
	}
}

func TestReadLoCoMoFile(t *testing.T) {
	f, err := os.Open("../../../shared/data/locomo/locomo8.json")
	if err != nil {
		t.Skip("LoCoMo not available:", err)
	}
	defer f.Close()
	cs, err := ReadLoCoMo(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 8 {
		t.Fatalf("%d conversations", len(cs))
	}
	var qs, turns, undated int
	for _, c := range cs {
		turns += len(c.Turns)
		qs += len(c.Questions)
		for _, tr := range c.Turns {
			if tr.Time == "" {
				undated++
			}
		}
	}
	if qs != 1586 || undated != 0 || turns < 3000 {
		t.Errorf("%d questions, %d turns, %d undated", qs, turns, undated)
	}
}

func TestReadLongMemEval(t *testing.T) {
	f, err := os.Open("../../testdata/longmemeval/small.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs, err := ReadLongMemEval(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("%d conversations", len(cs))
	}
	c := cs[0]
	if len(c.Turns) != 6 || c.Turns[4] != (Turn{ID: "s_c:1", Session: "s_c", Date: "2023/06/01 (Thu) 20:45", Time: "2023-06-01T20:45:00Z", Speaker: "user", Text: "My pottery class moved to Thursdays, which suits me better."}) {
		t.Errorf("turns %+v", c.Turns)
	}
	q := c.Questions[0]
	if !reflect.DeepEqual(q.Evidence, []string{"s_a:1", "s_c:1"}) || q.Date != "2023-06-20T09:00:00Z" || q.Category != "multi-session" || c.Sessions(q) != 2 {
		t.Errorf("question %+v", q)
	}
	// No turn marked: the user turns of the answer sessions.
	if q := cs[1].Questions[0]; !reflect.DeepEqual(q.Evidence, []string{"s_d:1"}) || q.Answer != "7" {
		t.Errorf("fallback question %+v", q)
	}
	if _, err := ReadLongMemEval(strings.NewReader(`[{"haystack_session_ids":["a"],"haystack_dates":[],"haystack_sessions":[[]]}]`)); err == nil {
		t.Error("mismatched lengths accepted")
	}
}
