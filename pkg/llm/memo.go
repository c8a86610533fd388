package llm

import "context"

// memo answers a repeated request from its first answer, so that one export
// call never asks the host the same thing twice. Equal requests hash equally
// (Request.Hash), and an answer depends only on its request at temperature 0.
// Failed exchanges are not kept: a retry may succeed.
type memo struct {
	next    Completer
	answers map[string]Response
}

func newMemo(c Completer) Completer {
	if c == nil {
		return nil
	}
	if m, ok := c.(*memo); ok {
		return m
	}
	return &memo{next: c, answers: map[string]Response{}}
}

// Complete implements Completer.
func (m *memo) Complete(ctx context.Context, r Request) (Response, error) {
	h := r.Hash()
	if resp, ok := m.answers[h]; ok {
		return resp, nil
	}
	resp, err := m.next.Complete(ctx, r)
	if err == nil && resp.Error == "" {
		m.answers[h] = resp
	}
	return resp, err
}
