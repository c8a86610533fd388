package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
)

func TestDerivedMetadata(t *testing.T) {
	cases := []struct{ title, platform, kind, format, series string }{
		{"Halo 3 - Xbox 360", "Xbox 360", "game", "physical", "Halo"},
		{"Mario Kart 8 - Nintendo Wii U", "Nintendo Wii U", "game", "physical", "Mario Kart"},
		{"Super Mario Galaxy - Nintendo Wii", "Nintendo Wii", "game", "physical", ""},
		{"Prey - Pre-load - PS4 Digital Code", "PlayStation 4", "game", "digital", "Prey"},
		{"Xbox 360 Wireless Controller - Black", "Xbox 360", "accessory", "physical", ""},
		{"Yoshi amiibo (Super Smash Bros Series)", "", "collectible", "physical", "Yoshi amiibo"},
		{"Fire Emblem: The Sacred Stones", "", "game", "physical", "Fire Emblem"},
		{"Bloodborne", "", "game", "physical", ""},
		// "Switch" alone is the console only where a platform list puts it.
		{"Mayflash GameCube Controller Adapter for Wii U, PC USB and Switch, 4 Port", "Nintendo Switch", "accessory", "physical", ""},
		{"Splatoon 2 - Nintendo Switch", "Nintendo Switch", "game", "physical", "Splatoon"},
		{"CORSAIR Strafe Mechanical Gaming Keyboard - Red LED Backlit - Cherry MX Red Switch", "", "accessory", "physical", ""},
		{"Perixx MX-1000 Programmable Gaming Mouse - DPI Switch 500-4000 - Compatible with Win 10", "", "accessory", "physical", ""},
		// Consoles and handhelds, alone or in bundles, are hardware (issue 27).
		{"Wii", "Nintendo Wii", "accessory", "physical", ""},
		{"Nintendo 3DS - Flame Red", "Nintendo 3DS", "accessory", "physical", ""},
		{"Nintendo 3DS XL New Super Mario Bros 2 Limited Edition", "Nintendo 3DS", "accessory", "physical", ""},
		{"PS3 500 GB Grand Theft Auto V Bundle", "PlayStation 3", "accessory", "physical", ""},
		{"Xbox One + Kinect", "Xbox One", "accessory", "physical", ""},
		{"Borderlands 2 - Limited Edition - PlayStation Vita Bundle", "PlayStation Vita", "accessory", "physical", ""},
		{"Xbox 360 LIVE 1600 Points", "Xbox 360", "accessory", "physical", ""},
		{"Sony Official Playstation 4 Vertical Stand - Black (ps4)", "PlayStation 4", "accessory", "physical", ""},
		// A game sold with what it needs is the game; a console sold with a
		// game is the console.
		{"Wii Fit Plus with Balance Board", "Nintendo Wii", "game", "physical", ""},
		{"Kinect Sensor with Kinect Adventures!", "", "accessory", "physical", ""},
		{"Wii Sports Resort", "Nintendo Wii", "game", "physical", ""},
		{"PS3 Little Big Planet 2 Special Edition", "PlayStation 3", "game", "physical", ""},
		{"Rocksmith 2014 Edition - Playstation 3 (Cable Included)", "PlayStation 3", "game", "physical", ""},
		{"Spirit Camera: The Cursed Memoir - Nintendo 3DS", "Nintendo 3DS", "game", "physical", ""},
		{"Mystery Case Files", "", "game", "physical", ""},
		// Toys-to-life: the starter pack is the game, the rest are figures.
		{"Skylanders SWAP Force Starter Pack - Xbox 360", "Xbox 360", "game", "physical", ""},
		{"Skylanders Trap Team: Echo Character Pack", "", "collectible", "physical", ""},
		{"Disney INFINITY Elsa", "", "collectible", "physical", ""},
		{"Animal Crossing: amiibo Festival Bundle - Wii U", "Nintendo Wii U", "game", "physical", ""},
		{"PowerA amiibo Question Block Case", "", "accessory", "physical", ""},
	}
	for _, c := range cases {
		if got := platformOf(c.title); got != c.platform {
			t.Errorf("platformOf(%q) = %q, want %q", c.title, got, c.platform)
		}
		if got := kindOf(c.title); got != c.kind {
			t.Errorf("kindOf(%q) = %q, want %q", c.title, got, c.kind)
		}
		if got := formatOf(c.title); got != c.format {
			t.Errorf("formatOf(%q) = %q, want %q", c.title, got, c.format)
		}
		if c.series != "" {
			if got := seriesKey(c.title); got != c.series {
				t.Errorf("seriesKey(%q) = %q, want %q", c.title, got, c.series)
			}
		}
	}
}

func TestDemoCatalogFixture(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runDemoCatalog([]string{"--data", "../../../testdata/web/games-mini", "--n", "4"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var c DemoCatalog
	if err := json.Unmarshal(out.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range c.Items {
		got = append(got, it.ID+":"+it.Title+":"+itoa(it.Popularity)+":"+it.Series)
	}
	// Popularity counts users: item 0 has 3, item 1 has 2 (u1 twice counts once).
	want := []string{"0:Halo 3 - Xbox 360:3:Halo", "1:Halo: Reach - Xbox 360:2:Halo", "2:Xbox 360 Wireless Controller - Black:1:", "3:Mario Kart 8 - Nintendo Wii U:1:"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("items\n got %v\nwant %v", got, want)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestCommittedDemoCatalog regenerates web/catalog/games-demo.json from the
// shared data set when it is present and demands the committed bytes.
func TestCommittedDemoCatalog(t *testing.T) {
	dir, err := findGames6k()
	if err != nil {
		t.Skip("Games-6k not available here:", err)
	}
	committed, err := os.ReadFile("../../../web/catalog/games-demo.json")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.LoadRecBole(dir, "Games-6k")
	if err != nil {
		t.Fatal(err)
	}
	b, err := encodeDemoCatalog(buildDemoCatalog(ds, 3000))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, committed) {
		t.Fatalf("web/catalog/games-demo.json is stale: run bin/recmem demo-catalog --out web/catalog/games-demo.json (%d bytes, want %d)", len(committed), len(b))
	}
	if len(b) > 1<<20 {
		t.Errorf("demo catalog is %d bytes, over 1 MiB", len(b))
	}
}
