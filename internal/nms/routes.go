package nms

import "github.com/confer-platform/confer/internal/api"

// Routes is the nms route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// alarms.go
		"nms.servers.unrepaired_warnings.list":   m.serverWarnings,
		"nms.terminals.unrepaired_warnings.list": m.terminalWarnings,
		// meetings.go
		"nms.service_domains.meetings.list": m.meetings,
		"nms.meetings.terminal_detail.get":  m.terminalDetail,
		// nms.go
		"nms.domains.list": m.domains,
		// servers.go
		"nms.platform_domains.physicals.list":     m.physicals,
		"nms.physicals.detail.get":                m.physicalDetail,
		"nms.physicals.logicals.list":             m.logicalsOf,
		"nms.platform_domains.logicals.list":      m.logicals,
		"nms.mediaresources.portinfo.get":         m.portInfo,
		"nms.platform_domains.mediaresources.get": m.mediaResources,
		// terminals.go
		"nms.user_domains.terminals.list":                   m.userTerminals,
		"nms.old_terminals.list":                            m.oldTerminals,
		"nms.service_domains.terminal_online_statistic.get": m.statistics,
	}
}
