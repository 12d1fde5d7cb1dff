package wire

// Error codes of the platform (reference A3-error-codes.md) and the few that
// Confer adds for cases the table lacks (90xxx, see docs/errors.md).
const (
	CodeSoftwareAuthFailed = 10001 // 软件认证失败: unknown license key or wrong secret
	CodeTokenInvalid       = 10002 // accountToken认证失败: missing, unknown or expired account_token
	CodeWrongPassword      = 10101 // password 验证错误
	CodeNotLoggedIn        = 10102 // 用户登录超时或者没有登录: missing, forged or expired SSO_COOKIE_KEY
	CodeConfNotFound       = 12103 // 会议不存在
	CodeMTNotFound         = 12104 // 终端不存在
	CodeUserNotFound       = 19001 // 用户不存在
	CodeWrongCredentials   = 19002 // 用户名或密码错误
	CodeUserDuplicate      = 19004 // 用户名重复
	CodeNoPermission       = 20005 // 权限不够, 不能执行此操作
	CodeIllegalBody        = 24506 // 消息中的消息体非法: body or params that cannot be parsed
	CodeNoConfResource     = 27506 // 无创会所需资源
	CodeSystemError        = 99999 // 系统处理出错

	// Confer's own codes (docs/errors.md).
	CodeInvalidParam    = 90400 // a parameter is missing, of the wrong type or out of range
	CodeNoSuchEndpoint  = 90404 // no endpoint at this path
	CodeMethodNotAllow  = 90405 // the path exists, the method does not
	CodeAccountLocked   = 90423 // too many failed logins; the account is locked until unlocktime
	CodeBodyTooLarge    = 90413 // request body above the documented limit
	CodeNotImplemented  = 90501 // the endpoint is catalogued but Confer does not serve it yet
	CodeNotSupported    = 90505 // the endpoint does not exist at the emulated release or API-Level
	CodeAccountDisabled = 90403 // the account is disabled
)

// codeText is the default description of each code, in English.
var codeText = map[int]string{
	CodeSoftwareAuthFailed: "software authentication failed",
	CodeTokenInvalid:       "account_token is invalid or expired",
	CodeWrongPassword:      "wrong password",
	CodeNotLoggedIn:        "not logged in or the login timed out",
	CodeConfNotFound:       "conference does not exist",
	CodeMTNotFound:         "terminal does not exist",
	CodeUserNotFound:       "user does not exist",
	CodeWrongCredentials:   "wrong user name or password",
	CodeUserDuplicate:      "user name already exists",
	CodeNoPermission:       "no permission for this operation",
	CodeIllegalBody:        "illegal message body",
	CodeNoConfResource:     "no idle conference resource",
	CodeSystemError:        "system error",
	CodeInvalidParam:       "invalid parameter",
	CodeNoSuchEndpoint:     "no such endpoint",
	CodeMethodNotAllow:     "method not allowed on this endpoint",
	CodeAccountLocked:      "account locked after too many failed logins",
	CodeBodyTooLarge:       "request body too large",
	CodeNotImplemented:     "endpoint not implemented",
	CodeNotSupported:       "endpoint not supported at this platform release or API-Level",
	CodeAccountDisabled:    "account disabled",
}

// CodeText returns the default English description of a code.
func CodeText(code int) string {
	if s, ok := codeText[code]; ok {
		return s
	}
	return "error"
}
