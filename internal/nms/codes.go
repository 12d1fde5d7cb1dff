package nms

// Error codes of network management, all in one place (reference A3):
// the answers for unknown objects and the code of the alarm notification.
// The codes shared by every module are internal/wire's.
const (
	CodeNoDevice        = 22008 // A3 设备不存在: unknown server, media resource or terminal
	CodeNoServiceDomain = 52010 // A3 该服务域不存在
	CodeNoUserDomain    = 99992 // A3 用户域不存在
	CodeMtUnreachable   = 20401 // A3 指定终端不可及, 可能不在线: the alarm of a conference whose calls keep failing (07 "系统告警通知")
)
