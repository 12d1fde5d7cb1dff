package main

import (
	"flag"
	"fmt"

	"github.com/confer-platform/confer/sdk"
)

// templatesCommands are the commands on conference templates (mc).
func templatesCommands() []*command {
	return []*command{
		{
			name: "templates list", summary: "List the personal templates, or with --public the public ones",
			example: "confer templates list\nconfer templates list --public --json",
			setup: func(fs *flag.FlagSet) runFunc {
				public := fs.Bool("public", false, "public templates of the user domain")
				return query(func(a *app, c *sdk.Client, _ []string) ([][]string, error) {
					if *public {
						r, err := c.MCPublicTemplatesList(a.capture(), &sdk.MCPublicTemplatesListRequest{Count: sdk.Int(0)})
						if err != nil {
							return nil, err
						}
						return rowsOf(r.PublicTemplates, func(t sdk.MCPublicTemplatesListReplyPublicTemplate) []string {
							return []string{t.TemplateID, t.Name, itoa(t.Bitrate), itoa(t.MaxJoinMt)}
						}), nil
					}
					r, err := c.MCPersonalTemplatesList(a.capture(), &sdk.MCPersonalTemplatesListRequest{Count: sdk.Int(0)})
					if err != nil {
						return nil, err
					}
					return rowsOf(r.PersonalTemplates, func(t sdk.MCPersonalTemplatesListReplyPersonalTemplate) []string {
						return []string{t.TemplateID, t.Name, itoa(t.Bitrate), itoa(t.MaxJoinMt)}
					}), nil
				}, func(a *app, _ []string, rows [][]string) {
					a.table([]string{"TEMPLATE_ID", "NAME", "BITRATE", "MAX_JOIN_MT"}, rows)
				})
			},
		},
		{
			name: "templates show", args: "TEMPLATE_ID", min: 1, max: 1, summary: "Show a template",
			example: "confer templates show 3\nconfer templates show 1 --public",
			setup: func(fs *flag.FlagSet) runFunc {
				public := fs.Bool("public", false, "a public template")
				return detail(publicOr(public,
					ignore(byID((*sdk.Client).MCPublicTemplatesGet)),
					ignore(byID((*sdk.Client).MCPersonalTemplatesGet))))
			},
		},
		{
			name: "templates delete", args: "TEMPLATE_ID", min: 1, max: 1, summary: "Delete a template",
			example: "confer templates delete 3",
			setup: func(fs *flag.FlagSet) runFunc {
				public := fs.Bool("public", false, "a public template (administrators)")
				return change(publicOr(public,
					ignore(byID((*sdk.Client).MCPublicTemplatesDelete)),
					ignore(byID((*sdk.Client).MCPersonalTemplatesDelete))),
					func(args []string) string { return fmt.Sprintf("Deleted template %s.", args[0]) })
			},
		},
	}
}

// publicOr is the action on a public template when --public is given,
// else the one on a personal template.
func publicOr(public *bool, pub, personal action) action {
	return func(a *app, c *sdk.Client, args []string) error {
		if *public {
			return pub(a, c, args)
		}
		return personal(a, c, args)
	}
}
