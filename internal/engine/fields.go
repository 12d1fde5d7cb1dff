package engine

import (
	"time"
)

// Creation types of reference 04 "创建会议" (create_type): 1 instant
// conference, 2 public template, 3 personal template (2 and 3 from
// 5.2.0.4.0, seed 001), 4 virtual meeting room.
const (
	CreateInstant          = 1
	CreatePublicTemplate   = 2
	CreatePersonalTemplate = 3
	CreateRoom             = 4
)

// DefaultMaxJoinMt is the size of a conference that states none: 192, the
// value seed 000 "Limits" 2 gives for room creation and every example of
// reference 04 uses. A running conference takes max_join_mt ports.
const DefaultMaxJoinMt = 192

// PlatformID is the moid of Confer's one conference platform
// (mc.platforms.list; platform_id of a conference).
const PlatformID = "c0f3e7a1-5d2b-4c8e-9f60-1a2b3c4d5e6f"

// EndTime is start plus duration minutes; zero for a permanent conference
// (duration 0).
func EndTime(start time.Time, duration int) time.Time {
	if duration <= 0 {
		return time.Time{}
	}
	return start.Add(time.Duration(duration) * time.Minute)
}

// Reserved is the ports a conference takes when it starts: its
// max_join_mt with preoccupy_resource 1, else none (its terminals take
// theirs as they join; capacity.go Usage).
func Reserved(c Conference) int {
	if c.PreoccupyResource() == 1 {
		return c.Ports()
	}
	return 0
}
