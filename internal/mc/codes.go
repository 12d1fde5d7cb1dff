package mc

// Error codes that meeting management answers, all in one place: reference
// A3 where it has one, Confer's own (docs/errors.md) where not. The codes
// shared by every module are internal/wire's.
const (
	// Templates.
	CodeTemplateNotFound   = 99998 // 该模板不存在
	CodeTemplateNameExists = 20105 // 该会议名已存在: a template's name is the name of its conferences
	CodeNoTemplateSpace    = 20103 // 没有可用的模版空间: every template id is taken

	// Virtual meeting rooms.
	CodeRoomNotFound   = 99996 // 该虚拟会议室不存在
	CodeRoomInUse      = 99991 // 会议室正在使用中
	CodeRoomLimit      = 99993 // 会议室数量已达上限
	CodeRoomNameExists = 99995 // 会议室名称已经存在

	// Meeting files.
	CodeFileEmpty    = 24016 // 空文件
	CodeFileNotFound = 24018 // 指定文件不存在
	CodeFileLimit    = 90409 // the meeting already keeps FileMaxPerMeeting files (Confer)
	CodeQuota        = 90429 // the user domain keeps Config.MaxFilesPerDomain files (Confer; files_quota.go)
)
