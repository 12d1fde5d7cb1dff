package amc

// Error codes that account management answers, all in one place: reference
// A3's, and Confer's 90409 for a department that is not empty. The codes
// shared by every module are internal/wire's.
const (
	CodeSelf         = 19007 // 当前用户不能删除自己: deleting or disabling oneself
	CodeGroupExists  = 19902 // 用户组已存在: a sibling department has the name
	CodeNoGroup      = 19903 // 用户组不存在: unknown department or public group
	CodeE164Exists   = 20107 // 该E164号码已存在
	CodeNoNumber     = 52001 // 账号没有可分配的号码: the automatic E164 range is used up
	CodeDigitsOnly   = 52002 // 账号不能是纯数字
	CodeAccountUsed  = 52003 // 用户账号已被使用
	CodeEmailUsed    = 52006 // 账号邮箱已被使用
	CodeMobileUsed   = 52007 // 账号手机号已被使用
	CodeMobileIsE164 = 52008 // 账号手机号与E164重复
	CodeNoDomain     = 99992 // 用户域不存在
	CodeNotEmpty     = 90409 // a department with sub-departments or accounts (Confer)
)
