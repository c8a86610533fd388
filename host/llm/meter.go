package llm

import (
	"context"
	"sort"
	"sync"

	contract "github.com/recmem/recmem/pkg/llm"
)

// Meter counts the exchanges that pass through it, per user and step, for any
// contract.Completer (a live client or a replay). It is safe for concurrent use.
type Meter struct {
	Next  contract.Completer
	mu    sync.Mutex
	usage map[string]map[string]*Usage
}

// NewMeter wraps next.
func NewMeter(next contract.Completer) *Meter {
	return &Meter{Next: next, usage: map[string]map[string]*Usage{}}
}

// Complete implements contract.Completer. Exchanges that end in an error count as
// calls with the tokens the response reports (usually none).
func (m *Meter) Complete(ctx context.Context, req contract.Request) (contract.Response, error) {
	resp, err := m.Next.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.usage[req.User]
	if u == nil {
		u = map[string]*Usage{}
		m.usage[req.User] = u
	}
	x := u[req.Purpose]
	if x == nil {
		x = &Usage{}
		u[req.Purpose] = x
	}
	x.Calls++
	x.InputTokens += resp.InputTokens
	x.OutputTokens += resp.OutputTokens
	return resp, nil
}

// Totals sums the usage per step over all users, and reports how many users
// made at least one call.
func (m *Meter) Totals() (perStep map[string]Usage, users int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	perStep = map[string]Usage{}
	for _, steps := range m.usage {
		users++
		for p, x := range steps {
			t := perStep[p]
			t.Calls += x.Calls
			t.InputTokens += x.InputTokens
			t.OutputTokens += x.OutputTokens
			perStep[p] = t
		}
	}
	return perStep, users
}

// Steps lists the steps seen, sorted.
func (m *Meter) Steps() []string {
	per, _ := m.Totals()
	out := make([]string, 0, len(per))
	for p := range per {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// PerUser is one step's average cost per user.
type PerUser struct {
	Calls        float64 `json:"calls"`
	InputTokens  float64 `json:"input_tokens"`
	OutputTokens float64 `json:"output_tokens"`
}

// PerUser divides the usage per step by users (the users evaluated, whether
// or not each made a call).
func (m *Meter) PerUser(users int) map[string]PerUser {
	per, _ := m.Totals()
	out := make(map[string]PerUser, len(per))
	n := float64(max(1, users))
	for step, u := range per {
		out[step] = PerUser{float64(u.Calls) / n, float64(u.InputTokens) / n, float64(u.OutputTokens) / n}
	}
	return out
}
