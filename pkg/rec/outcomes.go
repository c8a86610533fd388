package rec

import (
	"regexp"
	"strings"

	"github.com/recmem/recmem/pkg/llm"
)

// StepOutcomes counts what became of one LLM step's answers over a run: how
// many were asked for, how many were used (parsed, valid and applicable),
// why the others fell back, by reason class (ReasonClass) and by the check
// they failed (llm.Check*: placeholder, repetition, unsupported, ...), and
// what the accepted answers noted (a plan's decision and ops, a ranking's
// dropped repeats), by class.
type StepOutcomes struct {
	Asked      int            `json:"asked"`
	Accepted   int            `json:"accepted"`
	Valid      float64        `json:"valid_share"` // Accepted / Asked
	Fallback   map[string]int `json:"fallback_reasons,omitempty"`
	Rejections map[string]int `json:"rejections,omitempty"`
	Notes      map[string]int `json:"accepted_notes,omitempty"`
}

// Outcomes tallies the "llm" outcomes of a run's export outputs per step
// (llm.Purpose). Its zero value is not usable: make one with Outcomes{}.
type Outcomes map[string]*StepOutcomes

var (
	quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	hashRE   = regexp.MustCompile(`\b[0-9a-f]{12,}\b`)
	numberRE = regexp.MustCompile(`\d+(\.\d+)?`)
)

// MaxReasonClass bounds a reason class, in bytes before the ellipsis.
const MaxReasonClass = 160

// ReasonClass masks what varies between answers in a fallback reason, so that
// equal causes count together: every quoted string becomes "…", every hash
// (a word of 12 or more hex digits with a letter among them, as a request
// hash or a checksum) "…" whole, before every other run of digits becomes N
// (issue 22: a replay's message read "hash NaNaNba…", the digits of its
// hash masked one run at a time), and the text is cut at MaxReasonClass
// bytes. O(len(r)).
func ReasonClass(r string) string {
	r = quotedRE.ReplaceAllString(r, `"…"`)
	r = hashRE.ReplaceAllStringFunc(r, func(h string) string {
		if strings.Trim(h, "0123456789") == "" {
			return h // all digits: a number, below
		}
		return "…"
	})
	r = numberRE.ReplaceAllString(r, "N")
	if len(r) > MaxReasonClass {
		r = r[:MaxReasonClass] + "…"
	}
	return r
}

func (t Outcomes) step(purpose string) *StepOutcomes {
	s := t[purpose]
	if s == nil {
		s = &StepOutcomes{Fallback: map[string]int{}, Rejections: map[string]int{}, Notes: map[string]int{}}
		t[purpose] = s
	}
	return s
}

// Add counts outcomes: each one asked, accepted ("accepted") or fallen back
// with its reason's class. O(len(outcomes)).
func (t Outcomes) Add(outcomes []llm.Outcome) {
	for _, o := range outcomes {
		s := t.step(o.Purpose)
		s.Asked++
		if o.Status == "accepted" {
			s.Accepted++
			if o.Reason != "" {
				s.Notes[ReasonClass(o.Reason)]++
			}
		} else {
			s.Fallback[ReasonClass(o.Reason)]++
			check := o.Check
			if check == "" {
				check = "unnamed"
			}
			s.Rejections[check]++
		}
	}
}

// Merge adds o's counts to t.
func (t Outcomes) Merge(o Outcomes) {
	for step, x := range o {
		s := t.step(step)
		s.Asked += x.Asked
		s.Accepted += x.Accepted
		for r, n := range x.Fallback {
			s.Fallback[r] += n
		}
		for r, n := range x.Rejections {
			s.Rejections[r] += n
		}
		for r, n := range x.Notes {
			s.Notes[r] += n
		}
	}
}

// Report returns the tally by step with each step's valid share.
func (t Outcomes) Report() map[string]StepOutcomes {
	out := make(map[string]StepOutcomes, len(t))
	for step, s := range t {
		x := *s
		x.Valid = float64(x.Accepted) / float64(max(1, x.Asked))
		if len(x.Rejections) == 0 {
			x.Rejections = nil
		}
		if len(x.Notes) == 0 {
			x.Notes = nil
		}
		out[step] = x
	}
	return out
}
