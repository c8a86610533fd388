package memory

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseTitle(t *testing.T) {
	cases := []struct {
		title string
		want  titleParts
	}{
		{"Super Mario Odyssey - Nintendo Switch", titleParts{"", "Nintendo Switch", []string{"Mario", "Odyssey"}}},
		{"Fire Emblem: The Sacred Stones", titleParts{"Fire Emblem", "", []string{"Sacred", "Stones"}}},
		{"Final Fantasy XIV: A Realm Reborn 60 Day Time Card", titleParts{"Final Fantasy", "", []string{"Realm", "Reborn"}}},
		{"Rayman 3", titleParts{"Rayman", "", nil}},
		{"Xbox One Wired Controller", titleParts{"", "", []string{"Wired", "Controller"}}},
		{"NBA 2K16 - PlayStation 4", titleParts{"", "PlayStation 4", []string{"NBA"}}},
		{"Tom Clancy&rsquo;s Ghost Recon Wildlands - Xbox One", titleParts{"", "Xbox One", []string{"Tom", "Clancys", "Ghost", "Recon", "Wildlands"}}},
		{"Assassin&rsquo;s Creed Syndicate - Gold Edition - Xbox One", titleParts{"", "Xbox One", []string{"Assassins", "Creed", "Syndicate"}}},
		{"Guild Wars 2 Heroic Edition [Download]", titleParts{"", "", []string{"Guild", "Wars", "Heroic"}}},
		{"The Library - Hidden Object Game [Download]", titleParts{"", "", []string{"Library", "Hidden", "Object"}}},
		{"LEGO Star Wars: The Force Awakens - PlayStation Vita Standard Edition", titleParts{"LEGO Star Wars", "PlayStation Vita", []string{"Force", "Awakens"}}},
		{"Life Together: The Classic Exploration of Christian Community", titleParts{"Life Together", "", []string{"Classic", "Exploration", "Christian", "Community"}}},
	}
	for _, c := range cases {
		if got := parseTitle(c.title); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseTitle(%q)\n got %+v\nwant %+v", c.title, got, c.want)
		}
	}
}

func TestItemFeatures(t *testing.T) {
	meta := map[string][]string{
		"title":   {"Rayman 3 - PlayStation 2"},
		"genres":  {"Platformer|Action", "platformer"},
		"year":    {"2003"},
		"price":   {"19.99"},
		"Authors": {"Michel Ancel"},
	}
	derived := []feature{
		{"author", "michel ancel", "Michel Ancel", false},
		{"genre", "platformer", "Platformer", false},
		{"genre", "action", "Action", false},
		{"series", "rayman", "Rayman", true},
		{"platform", "playstation 2", "PlayStation 2", true},
		{"era", "2000s", "2000s", false},
	}
	if got := itemFeatures(meta, nil); !reflect.DeepEqual(got, derived) {
		t.Errorf("derived categories\n got %+v\nwant %+v", got, derived)
	}
	// MARS Books-style categories: fields map to their family, the rest to topic.
	cats := []string{"topic", "creator", "genre", "format", "era", "tone"}
	mapped := []feature{
		{"creator", "michel ancel", "Michel Ancel", false},
		{"genre", "platformer", "Platformer", false},
		{"genre", "action", "Action", false},
		{"topic", "rayman", "Rayman", true},
		{"format", "playstation 2", "PlayStation 2", true},
		{"era", "2000s", "2000s", false},
	}
	if got := itemFeatures(meta, cats); !reflect.DeepEqual(got, mapped) {
		t.Errorf("given categories\n got %+v\nwant %+v", got, mapped)
	}
	// Without a matching family or topic, a feature is dropped.
	if got := itemFeatures(meta, []string{"genre"}); len(got) != 2 {
		t.Errorf("genre only: %+v", got)
	}
}

func TestChunkText(t *testing.T) {
	cases := []struct{ cat, pol, label, want string }{
		{"series", "likes", "Mario", "Enjoys the Mario series"},
		{"genre", "avoids", "horror", "Avoids horror"},
		{"author", "likes", "Dietrich Bonhoeffer", "Enjoys work by Dietrich Bonhoeffer"},
		{"brand", "likes", "Nintendo", "Likes the Nintendo brand"},
		{"platform", "likes", "Nintendo DS", "Prefers Nintendo DS"},
		{"era", "likes", "1990s", "Enjoys titles from the 1990s"},
		{"topic", "avoids", "Churchill", "Not interested in Churchill"},
		{"color", "likes", "red", "Likes red (color)"},
	}
	for _, c := range cases {
		if got := chunkText(c.cat, c.pol, c.label); got != c.want {
			t.Errorf("chunkText(%s, %s, %s) = %q, want %q", c.cat, c.pol, c.label, got, c.want)
		}
	}
	if got := keyFromText("Enjoys the Mario series"); got != "mario" {
		t.Errorf("keyFromText = %q", got)
	}
}

func TestItemFeaturesBounds(t *testing.T) {
	long := strings.Repeat("Very Long Genre Name ", 10)
	meta := map[string][]string{"genre": {long, "RPG"}, "!!!": {"x"}}
	got := itemFeatures(meta, nil)
	if len(got) != 1 || got[0].Key != "rpg" {
		t.Errorf("got %+v", got)
	}
	// Whatever the metadata, recording it never fails.
	s := New(Config{Batch: 1})
	if _, err := s.Record([]Signal{{User: "u", Item: "i", Action: "like", Meta: meta}}, Fixed{}, Policy{}); err != nil {
		t.Fatal(err)
	}
}
