package engine

import (
	"github.com/recmem/recmem/pkg/jsonenc"
	"github.com/recmem/recmem/pkg/memory"
)

// AppendJSON appends record's output exactly as json.Marshal writes it
// (fields in order, omitempty as tagged), without reflection, which costs
// 10-20x more inside WebAssembly: recording a signal is a hot path.
// TestRecordOutputMatchesMarshal holds it to json.Marshal. O(output size).
func (o RecordOutput) AppendJSON(b []byte) ([]byte, error) {
	r := &o.RecordResult
	b = append(b, `{"events_added":`...)
	b = jsonenc.AppendInt(b, r.EventsAdded)
	if len(r.Repeated) > 0 {
		b = append(b, `,"repeated":`...)
		b = appendStrings(b, r.Repeated)
	}
	b = append(b, `,"evicted":`...)
	b = appendStrings(b, r.Evicted)
	b = append(b, `,"fifo":`...)
	b, err := appendEntries(b, r.Fifo)
	if err != nil {
		return nil, err
	}
	m := &r.Maintenance
	b = append(b, `,"maintenance":{"scheduler":`...)
	b = jsonenc.AppendString(b, m.Scheduler)
	b = append(b, `,"decision":`...)
	b = jsonenc.AppendString(b, m.Decision)
	b = append(b, `,"reason":`...)
	b = jsonenc.AppendString(b, m.Reason)
	b = append(b, `,"ops":`...)
	if b, err = appendEntries(b, m.Ops); err != nil {
		return nil, err
	}
	b = append(b, `},"summary":`...)
	b = appendSummary(b, &o.Summary)
	if len(o.LLM) > 0 {
		if b, err = appendMarshal(b, `,"llm":`, o.LLM); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendStrings appends a list of strings ("null" for a nil one, as
// json.Marshal writes it).
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonenc.AppendString(b, s)
	}
	return append(b, ']')
}

// appendEntries appends journal entries ("null" for a nil list).
func appendEntries(b []byte, es []memory.Entry) ([]byte, error) {
	if es == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range es {
		if i > 0 {
			b = append(b, ',')
		}
		e := &es[i]
		b = append(b, `{"seq":`...)
		b = jsonenc.AppendInt(b, e.Seq)
		b = append(b, `,"time":`...)
		b = jsonenc.AppendInt(b, int(e.Time))
		b = append(b, `,"op":`...)
		b = jsonenc.AppendString(b, e.Op)
		b = append(b, `,"trigger":`...)
		b = jsonenc.AppendString(b, e.Trigger)
		if len(e.Chunks) > 0 {
			b = append(b, `,"chunks":`...)
			b = appendStrings(b, e.Chunks)
		}
		if len(e.Events) > 0 {
			b = append(b, `,"events":`...)
			b = appendStrings(b, e.Events)
		}
		var err error
		for _, f := range [...]struct {
			key string
			v   *float64
		}{{`,"before":`, e.Before}, {`,"after":`, e.After}} {
			if f.v != nil {
				b = append(b, f.key...)
				if b, err = jsonenc.AppendFloat(b, *f.v); err != nil {
					return nil, err
				}
			}
		}
		b = append(b, `,"reason":`...)
		b = jsonenc.AppendString(b, e.Reason)
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// appendSummary appends a memory summary.
func appendSummary(b []byte, s *memory.Summary) []byte {
	b = append(b, `{"clock":`...)
	b = jsonenc.AppendInt(b, int(s.Clock))
	b = append(b, `,"events":`...)
	b = jsonenc.AppendInt(b, s.Events)
	b = append(b, `,"pending":`...)
	b = jsonenc.AppendInt(b, s.Pending)
	b = append(b, `,"chunks":`...)
	b = jsonenc.AppendInt(b, s.Chunks)
	b = append(b, `,"categories":`...)
	if s.Categories == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range s.Categories {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"category":`...)
			b = jsonenc.AppendString(b, c.Category)
			b = append(b, `,"chunks":`...)
			b = jsonenc.AppendInt(b, c.Chunks)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"profile_version":`...)
	b = jsonenc.AppendInt(b, s.ProfileVersion)
	b = append(b, `,"journal":`...)
	b = jsonenc.AppendInt(b, s.Journal)
	b = append(b, `,"mutations_since_synthesis":`...)
	b = jsonenc.AppendInt(b, s.Mutations)
	return append(b, '}')
}
