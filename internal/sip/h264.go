package sip

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// H.264 in offer/answer (RFC 6184 section 8.2.2). Confer forwards H.264
// as it comes: browsers' and the compositor's constrained baseline, up to
// level 3.1 (42e01f). A terminal often offers several payload types of
// one codec (High, Main, constrained baseline); the one answered decides
// what the terminal sends to every receiver of its video, browsers
// included, so constrained baseline comes first (every H.264 decoder
// decodes it), then baseline, main and high. The answer names that
// payload type's profile-level-id with packetization mode 1 and nothing
// more of the terminal's fmtp (sprop-parameter-sets, max-mbps and the
// like describe the terminal, not Confer).

// h264Fmtp is what an H.264 fmtp line says.
type h264Fmtp struct {
	profileLevelID string // six hex digits; "" absent (RFC 6184: 420010)
	profile, level byte
	constrained    bool   // constraint_set1: constrained baseline when the profile is baseline
	mode           int    // packetization-mode (absent: 0)
	asymmetry      bool   // level-asymmetry-allowed=1
	sprop          string // sprop-parameter-sets, as written
}

func parseH264Fmtp(fmtp string) h264Fmtp {
	f := h264Fmtp{profile: 0x42, level: 0x0a}
	for _, kv := range strings.Split(fmtp, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch strings.ToLower(k) {
		case "profile-level-id":
			if n, err := strconv.ParseUint(v, 16, 32); err == nil && len(v) == 6 {
				f.profileLevelID = strings.ToLower(v)
				f.profile, f.level = byte(n>>16), byte(n)
				f.constrained = byte(n>>8)&0x40 != 0
			}
		case "packetization-mode":
			f.mode, _ = strconv.Atoi(v)
		case "level-asymmetry-allowed":
			f.asymmetry = v == "1"
		case "sprop-parameter-sets":
			f.sprop = strings.TrimSpace(v)
		}
	}
	return f
}

// rank orders the profiles by how many receivers decode the stream.
func (f h264Fmtp) rank() int {
	switch {
	case f.profile == 0x42 && f.constrained:
		return 0
	case f.profile == 0x42:
		return 1
	case f.profile == 0x4d:
		return 2
	case f.profile == 0x64:
		return 3
	}
	return 4
}

// answer is the fmtp Confer writes for this payload type.
func (f h264Fmtp) answer() string {
	var b strings.Builder
	if f.profileLevelID != "" {
		b.WriteString("profile-level-id=" + f.profileLevelID + ";")
	}
	if f.asymmetry {
		b.WriteString("level-asymmetry-allowed=1;")
	}
	b.WriteString("packetization-mode=1")
	return b.String()
}

// pickH264 is the terminal's H.264 payload type Confer answers, with the
// fmtp it answers (its sprop-parameter-sets kept apart in Sprop); nil when it has none in packetization mode 1 (the SFU
// forwards FU-A fragments: mode 0 is refused).
func pickH264(peer []Codec) *Codec {
	var cands []Codec
	for _, p := range peer {
		if strings.EqualFold(p.Name, "H264") && p.ClockRate == 90000 && parseH264Fmtp(p.Fmtp).mode == 1 {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	slices.SortStableFunc(cands, func(a, b Codec) int {
		fa, fb := parseH264Fmtp(a.Fmtp), parseH264Fmtp(b.Fmtp)
		return cmp.Or(cmp.Compare(fa.rank(), fb.rank()), cmp.Compare(fb.level, fa.level))
	})
	c := cands[0]
	f := parseH264Fmtp(c.Fmtp)
	c.Name, c.Fmtp, c.Sprop = "H264", f.answer(), f.sprop
	return &c
}
