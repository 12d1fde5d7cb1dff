package nms

import "github.com/confer-platform/confer/internal/api"

// Routes is the nms route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// alarms.go
		"nms.servers.unrepaired_warnings.list":   api.Typed(m.serverWarnings),
		"nms.terminals.unrepaired_warnings.list": api.Typed(m.terminalWarnings),
		// meetings.go
		"nms.service_domains.meetings.list": api.Typed(m.meetings),
		"nms.meetings.terminal_detail.get":  api.Typed(m.terminalDetail),
		// nms.go
		"nms.domains.list": api.Typed(m.domains),
		// servers.go
		"nms.platform_domains.physicals.list":     api.Typed(m.physicals),
		"nms.physicals.detail.get":                api.Typed(m.physicalDetail),
		"nms.physicals.logicals.list":             api.Typed(m.logicalsOf),
		"nms.platform_domains.logicals.list":      api.Typed(m.logicals),
		"nms.mediaresources.portinfo.get":         api.Typed(m.portInfo),
		"nms.platform_domains.mediaresources.get": api.Typed(m.mediaResources),
		// terminals.go
		"nms.user_domains.terminals.list":                   api.Typed(m.userTerminals),
		"nms.old_terminals.list":                            api.Typed(m.oldTerminals),
		"nms.service_domains.terminal_online_statistic.get": api.Typed(m.statistics),
	}
}
