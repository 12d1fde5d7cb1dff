package krtc

// Error codes that the room module answers, all in one place (reference
// A3). The codes shared by every module are internal/wire's.
const (
	CodeRoomNotFound   = 99996 // 该虚拟会议室不存在
	CodeRoomNameExists = 99995 // 会议室名称已经存在
	CodeRoomLimit      = 99993 // 会议室数量已达上限: every room id is taken
)
