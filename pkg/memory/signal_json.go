package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
)

// FieldError is a decoding error that names the field at fault by its path
// in the value decoded ("time", "meta.genre").
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// UnmarshalJSON reads a signal as the record export takes it: unknown fields
// are refused, time is required, and each metadata field is a string (kept
// as a one-value list) or an array of strings. encoding/json's own errors
// come back as they are; the others are *FieldError. O(len(b)).
func (s *Signal) UnmarshalJSON(b []byte) error {
	var in struct {
		User     string                     `json:"user"`
		Item     string                     `json:"item"`
		Action   string                     `json:"action"`
		Rating   int                        `json:"rating"`
		Meta     map[string]json.RawMessage `json:"meta"`
		Time     *int64                     `json:"time"`
		ClientID string                     `json:"client_id"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return err
	}
	if in.Time == nil {
		return &FieldError{"time", errors.New("required")}
	}
	meta, err := decodeMeta(in.Meta)
	if err != nil {
		return err
	}
	*s = Signal{User: in.User, Item: in.Item, Action: in.Action, Rating: in.Rating, Meta: meta, Time: *in.Time, ClientID: in.ClientID}
	return nil
}

// decodeMeta turns item metadata, each field a string or an array of
// strings, into the memory's form, fields in sorted order so that the first
// error is the same on every host.
func decodeMeta(in map[string]json.RawMessage) (map[string][]string, error) {
	if in == nil {
		return nil, nil
	}
	fields := make([]string, 0, len(in))
	for f := range in {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	out := make(map[string][]string, len(in))
	for _, f := range fields {
		raw := in[f]
		var one string
		var many []string
		switch {
		case json.Unmarshal(raw, &one) == nil && string(raw) != "null":
			out[f] = []string{one}
		case json.Unmarshal(raw, &many) == nil && string(raw) != "null":
			out[f] = many
		default:
			return nil, &FieldError{"meta." + f, errors.New("must be a string or an array of strings")}
		}
	}
	return out, nil
}
