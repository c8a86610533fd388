package engine

import (
	"errors"
	"fmt"

	"github.com/recmem/recmem/pkg/ident"
	"github.com/recmem/recmem/pkg/jsonenc"
	"github.com/recmem/recmem/pkg/slate"
)

// Slate-selection exports (pkg/slate, docs/slate.md):
//
//	add_units     {"units":[unit...]}                      -> {"added":n,"units":total,"sessions":s}
//	delete_units  {"ids":["id"...]}                         -> {"deleted":n,"units":total,"sessions":s}
//	purge         {"session":"S"} | {"user":"U"} | both     -> {"purged":n,"units":total,"sessions":s}
//	select_slate  {"query","date","budget","pool","ranker","model","with_pool"}
//	              -> {"ranker","budget","tokens","pool","units":[chosen...]}
//
// A unit is {"id","session","date","time","speaker","text","user","kind"}.

// Limits of the agent memory: units one state may hold (LongMemEval-M
// histories are about 25,000 turns) and the largest token budget a slate may
// ask for.
const (
	MaxUnits  = 100_000
	MaxBudget = 1_000_000
)

// slateCounts is the agent memory's size after a change.
type slateCounts struct {
	Units    int `json:"units"`
	Sessions int `json:"sessions"`
}

func (e *Engine) units() *slate.Store {
	if e.doc.Units == nil {
		return slate.NewStore()
	}
	return e.doc.Units
}

func counts(s *slate.Store) slateCounts { return slateCounts{Units: s.Len(), Sessions: s.Sessions()} }

// AddUnitsInput is the input of add_units.
type AddUnitsInput struct {
	Units []slate.Unit `json:"units"`
}

// AddUnitsOutput counts the units added and the store's size after.
type AddUnitsOutput struct {
	Added int `json:"added"`
	slateCounts
}

// AppendJSON appends the output as json.Marshal writes it, without
// reflection (add_units is a hot path: a call per new turn).
func (o AddUnitsOutput) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"added":`...)
	b = jsonenc.AppendInt(b, o.Added)
	return o.slateCounts.appendJSON(b), nil
}

// appendJSON appends ,"units":n,"sessions":s} (the counts' members, the
// object closed).
func (c slateCounts) appendJSON(b []byte) []byte {
	b = append(b, `,"units":`...)
	b = jsonenc.AppendInt(b, c.Units)
	b = append(b, `,"sessions":`...)
	b = jsonenc.AppendInt(b, c.Sessions)
	return append(b, '}')
}

// DeleteUnitsInput is the input of delete_units.
type DeleteUnitsInput struct {
	IDs []string `json:"ids"`
}

// DeleteUnitsOutput counts the units deleted and the store's size after.
type DeleteUnitsOutput struct {
	Deleted int `json:"deleted"`
	slateCounts
}

// PurgeInput is the input of purge: a session, a user or both.
type PurgeInput struct {
	Session string `json:"session,omitempty"`
	User    string `json:"user,omitempty"`
}

// PurgeOutput counts the units purged and the store's size after.
type PurgeOutput struct {
	Purged int `json:"purged"`
	slateCounts
}

// SelectSlateInput is the input of select_slate (slate.Request).
type SelectSlateInput = slate.Request

// SelectSlateOutput is the slate select_slate chose (slate.Result).
type SelectSlateOutput = *slate.Result

func addUnitsExport(e *Engine, input []byte) (AddUnitsOutput, error) {
	var in AddUnitsInput
	if units, ok := decodeUnitsFast(input); ok {
		in.Units = units
	} else if err := decodeStrict(input, &in); err != nil {
		return AddUnitsOutput{}, err
	}
	if len(in.Units) == 0 {
		return AddUnitsOutput{}, errors.New("input.units: missing or empty")
	}
	e.timer.Mark("decode")
	s := e.units()
	if n := s.Len() + len(in.Units); n > MaxUnits {
		return AddUnitsOutput{}, fmt.Errorf("input.units: the store would hold %d units, more than the limit of %d", n, MaxUnits)
	}
	s.SetTimer(e.timer)
	err := s.Add(in.Units)
	s.SetTimer(nil)
	if err != nil {
		return AddUnitsOutput{}, fmt.Errorf("input.%w", err)
	}
	e.doc.Units = s
	return AddUnitsOutput{len(in.Units), counts(s)}, nil
}

func deleteUnitsExport(e *Engine, input []byte) (DeleteUnitsOutput, error) {
	var in DeleteUnitsInput
	if err := decodeStrict(input, &in); err != nil {
		return DeleteUnitsOutput{}, err
	}
	if len(in.IDs) == 0 {
		return DeleteUnitsOutput{}, errors.New("input.ids: missing or empty")
	}
	s := e.units()
	if err := s.Delete(in.IDs); err != nil {
		return DeleteUnitsOutput{}, fmt.Errorf("input.%w", err)
	}
	return DeleteUnitsOutput{len(in.IDs), counts(s)}, nil
}

func purgeExport(e *Engine, input []byte) (PurgeOutput, error) {
	var in PurgeInput
	if err := decodeStrict(input, &in); err != nil {
		return PurgeOutput{}, err
	}
	if in.Session == "" && in.User == "" {
		return PurgeOutput{}, errors.New("input: give session, user or both")
	}
	for _, f := range [...]struct{ name, v string }{{"session", in.Session}, {"user", in.User}} {
		if f.v == "" {
			continue
		}
		if err := ident.Check(f.v, slate.MaxIDBytes); err != nil {
			return PurgeOutput{}, fmt.Errorf("input.%s: %w", f.name, err)
		}
	}
	s := e.units()
	n := s.Purge(in.Session, in.User)
	return PurgeOutput{n, counts(s)}, nil
}

func selectSlateExport(e *Engine, input []byte) (SelectSlateOutput, error) {
	req, fast := decodeSelectFast(input)
	if !fast {
		if err := decodeStrict(input, &req); err != nil {
			return nil, err
		}
	}
	if err := req.Validate(); err != nil {
		return nil, fmt.Errorf("input.%w", err)
	}
	if req.Budget > MaxBudget {
		return nil, fmt.Errorf("input.budget: %d tokens, more than the limit of %d", req.Budget, MaxBudget)
	}
	e.timer.Mark("decode")
	s := e.units()
	s.SetTimer(e.timer)
	defer s.SetTimer(nil)
	return s.Select(req)
}
