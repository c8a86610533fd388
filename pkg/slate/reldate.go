package slate

import (
	"strconv"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/text"
)

// A turn often dates what it tells relative to the day it was said: "I
// went camping yesterday", "we moved last month", "two weekends ago". With
// its session's date, such a phrase points to a day, week, weekend, month
// or year, which a reader (or an agent answering "when did ...?") needs.

// relDate is a relative date phrase found in a unit and what it points to.
type relDate struct {
	phrase string // as the unit says it, lowercased: "last week"
	when   string // what it points to: "7 May 2023", "the week of 1 May 2023", "April 2023"
}

var weekdays = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

var smallNumbers = map[string]int{"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple": 2}

// relativeDate returns the first relative date phrase of s (in word order)
// and the day or period it points to from at (seconds since the epoch, the
// unit's time, read in UTC). Cost O(len(s)).
func relativeDate(s string, at int64) (relDate, bool) {
	ws := text.Words(s)
	day := time.Unix(at, 0).UTC().Truncate(24 * time.Hour)
	dayOf := func(t time.Time) string { return t.Format("2 January 2006") }
	for i, w := range ws {
		next := func(k int) string {
			if i+k < len(ws) {
				return ws[i+k]
			}
			return ""
		}
		switch w {
		case "yesterday":
			if i >= 3 && ws[i-3] == "the" && ws[i-2] == "day" && ws[i-1] == "before" {
				return relDate{"the day before yesterday", dayOf(day.AddDate(0, 0, -2))}, true
			}
			return relDate{"yesterday", dayOf(day.AddDate(0, 0, -1))}, true
		case "tomorrow":
			return relDate{"tomorrow", dayOf(day.AddDate(0, 0, 1))}, true
		case "tonight":
			return relDate{"tonight", dayOf(day)}, true
		case "last", "next":
			sign := -1
			if w == "next" {
				sign = 1
			}
			switch u := next(1); u {
			case "night":
				if sign < 0 {
					return relDate{"last night", dayOf(day.AddDate(0, 0, -1))}, true
				}
			case "week":
				return relDate{w + " week", "the week of " + dayOf(weekStart(day.AddDate(0, 0, 7*sign)))}, true
			case "weekend":
				return relDate{w + " weekend", "the weekend of " + dayOf(weekend(day, sign))}, true
			case "month":
				return relDate{w + " month", day.AddDate(0, sign, 1-day.Day()).Format("January 2006")}, true
			case "year":
				return relDate{w + " year", strconv.Itoa(day.Year() + sign)}, true
			default:
				if wd, ok := weekdays[u]; ok {
					return relDate{w + " " + u, dayOf(weekday(day, wd, sign))}, true
				}
			}
		case "ago":
			if i < 2 {
				continue
			}
			unit, nw := ws[i-1], ws[i-2]
			of := nw == "of" && i >= 3 // "a couple of weeks ago"
			if of {
				nw = ws[i-3]
			}
			n, ok := smallNumbers[nw]
			if !ok {
				if v, err := strconv.Atoi(nw); err == nil && v > 0 && v < 100 {
					n, ok = v, true
				}
			}
			if !ok {
				continue
			}
			phrase := nw + " " + unit + " ago"
			if of {
				phrase = nw + " of " + unit + " ago"
			}
			if nw == "couple" && i >= 4 && ws[i-4] == "a" {
				phrase = "a " + phrase
			}
			switch strings.TrimSuffix(unit, "s") {
			case "day":
				return relDate{phrase, dayOf(day.AddDate(0, 0, -n))}, true
			case "week":
				return relDate{phrase, "the week of " + dayOf(weekStart(day.AddDate(0, 0, -7*n)))}, true
			case "weekend":
				return relDate{phrase, "the weekend of " + dayOf(weekend(day.AddDate(0, 0, -7*(n-1)), -1))}, true
			case "month":
				return relDate{phrase, day.AddDate(0, -n, 1-day.Day()).Format("January 2006")}, true
			case "year":
				return relDate{phrase, strconv.Itoa(day.Year() - n)}, true
			}
		}
	}
	return relDate{}, false
}

// weekStart is the Monday of t's week.
func weekStart(t time.Time) time.Time {
	d := (int(t.Weekday()) + 6) % 7 // days since Monday
	return t.AddDate(0, 0, -d)
}

// weekend is the Saturday of the weekend before t (sign -1; a Sunday's
// "last weekend" is the one before it) or after t (sign 1).
func weekend(t time.Time, sign int) time.Time {
	if sign < 0 {
		d := (int(t.Weekday()) + 1) % 7 // days since Saturday
		if d <= 1 {                     // on Saturday or Sunday, the weekend before
			d += 7
		}
		return t.AddDate(0, 0, -d)
	}
	d := (int(time.Saturday) - int(t.Weekday()) + 7) % 7
	if d == 0 {
		d = 7
	}
	return t.AddDate(0, 0, d)
}

// weekday is the last (sign -1) or next (sign 1) day named wd strictly
// before or after t.
func weekday(t time.Time, wd time.Weekday, sign int) time.Time {
	for k := 1; k <= 7; k++ {
		d := t.AddDate(0, 0, sign*k)
		if d.Weekday() == wd {
			return d
		}
	}
	return t
}
