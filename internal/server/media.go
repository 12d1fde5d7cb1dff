package server

import "github.com/confer-platform/confer/internal/rtc"

// rtcTokens are the media tokens of vc's rtc_tokens extension.
func (s *Server) rtcTokens() rtc.Tokens {
	return rtc.Tokens{Store: s.cfg.Store, Clock: s.cfg.Clock}
}
