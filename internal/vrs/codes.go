package vrs

// Error codes of the recording system (reference A5-vrs-error-codes.md).
// The vrs endpoints answer them, and the batch operations carry them per
// program (delerrno, relerrno, adderrno, operrno). Parameters that the
// catalogue's schema refuses answer Confer's 90400 as everywhere.
const (
	CodeWrongPassword   = 5     // 密码错误
	CodeUserUnknown     = 6     // 用户名不存在
	CodeBadInput        = 8     // 输入有误: an unknown folder, a built-in folder changed
	CodeNoPermission    = 9     // 没有权限
	CodeUserDisabled    = 10    // 用户失效
	CodeFolderExists    = 30    // 文件夹已经存在
	CodeFolderLimit     = 31    // 文件夹超过最大个数
	CodeNoProgram       = 32    // 节目不存在
	CodePublished       = 34    // 节目已经发布
	CodeTranscoding     = 35    // 节目正在转码
	CodeRecRoomLimit    = 250   // 录像室超过最大个数
	CodePlayRoomLimit   = 260   // 放像室超过最大个数
	CodeNoRecResource   = 24102 // 录像资源不足，录像开启失败
	CodeBadFileName     = 24103 // 录像文件名中存在非法字符
	CodeNoFile          = 24106 // 您点播的文件不存在
	CodeRoomExists      = 24202 // 录放像室别名或者号码已经存在
	CodeNoRoom          = 24203 // 录放像室别名或者号码不存在
	CodeNoLiveResource  = 24205 // 直播资源不足
	CodeBadState        = 24206 // 状态错误
	CodeTaskExists      = 24601 // 转码任务已经存在
	CodeTranscoded      = 24602 // 节目已经转过码
	CodeNoTask          = 24603 // 转码任务不存在
	CodeTaskStarted     = 24604 // 转码任务已经开始
	CodeTaskPaused      = 24605 // 转码任务已经暂停
	CodeTranscodedSame  = 24607 // 节目已经转码，与新增的转码任务参数相同
	CodeTranscodedOther = 24608 // 节目已经转码，与新增的转码任务参数不同
)
