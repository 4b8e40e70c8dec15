package sampleworkspace

import (
	"fmt"
	"path"
	"strings"
)

// lang is what a repository holds: its files and the subjects of its
// commits.
type lang int

const (
	langGo lang = iota
	langTS
	langRust
	langPython
	langDocs
	langTerraform
	langK8s
	langProto
	langShell
)

// langFiles are the files of a new repository of lang called name.
func langFiles(l lang, name string) map[string]string {
	readme := fmt.Sprintf("# %s\n\nOwned by the platform team. See docs/ for how to run it locally.\n", name)
	switch l {
	case langGo:
		return map[string]string{
			"README.md":                       readme,
			".gitignore":                      "/bin/\n*.test\n.env\n",
			"go.mod":                          "module github.com/acme/" + name + "\n\ngo 1.24\n",
			"Makefile":                        "build:\n\tgo build -o bin/ ./...\n\ntest:\n\tgo test ./...\n",
			"cmd/" + name + "/main.go":        "package main\n\nimport \"log\"\n\nfunc main() {\n\tlog.Println(\"starting " + name + "\")\n}\n",
			"internal/server/server.go":       "package server\n\n// Server serves the API.\ntype Server struct{}\n",
			"internal/server/server_test.go":  "package server\n\nimport \"testing\"\n\nfunc TestServer(t *testing.T) {}\n",
			"internal/store/store.go":         "package store\n\n// Store keeps the records.\ntype Store struct{}\n",
			"docs/running-locally.md":         "# Running " + name + " locally\n\n    make build && ./bin/" + name + "\n",
			".github/workflows/ci.yaml":       "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test\n",
			"internal/store/migrations.go":    "package store\n\n// Migrate brings the schema up to date.\nfunc Migrate() error { return nil }\n",
			"internal/server/middleware.go":   "package server\n\n// RequestID tags each request.\nfunc RequestID() {}\n",
			"internal/server/healthz.go":      "package server\n\n// Healthz answers the load balancer.\nfunc Healthz() {}\n",
			"internal/store/store_test.go":    "package store\n\nimport \"testing\"\n\nfunc TestStore(t *testing.T) {}\n",
			"cmd/" + name + "/flags.go":       "package main\n",
			"internal/config/config.go":       "package config\n\n// Config is read from the environment.\ntype Config struct{}\n",
			"internal/config/config_test.go":  "package config\n",
			"internal/metrics/metrics.go":     "package metrics\n",
			"internal/metrics/prometheus.go":  "package metrics\n",
			"internal/server/routes.go":       "package server\n",
			"internal/server/errors.go":       "package server\n",
			"internal/store/postgres.go":      "package store\n",
			"internal/store/postgres_test.go": "package store\n",
		}
	case langTS:
		return map[string]string{
			"README.md":     readme,
			".gitignore":    "node_modules/\ndist/\n.env\n",
			"package.json":  fmt.Sprintf("{\n  \"name\": \"@acme/%s\",\n  \"private\": true,\n  \"scripts\": {\"build\": \"tsc\", \"test\": \"vitest\"}\n}\n", name),
			"tsconfig.json": "{\n  \"compilerOptions\": {\"strict\": true, \"outDir\": \"dist\"}\n}\n",
			"src/index.ts":  "export { api } from './api';\n",
			"src/api.ts":    "export const api = { baseUrl: '/api' };\n",
			"src/App.tsx":   "export function App() {\n  return <main>" + name + "</main>;\n}\n",
			"src/hooks.ts":  "export function useSession() {}\n",
			"test/api.test.ts": "import { api } from '../src/api';\n" +
				"test('base url', () => expect(api.baseUrl).toBe('/api'));\n",
		}
	case langRust:
		return map[string]string{
			"README.md":    readme,
			".gitignore":   "/target\n",
			"Cargo.toml":   fmt.Sprintf("[package]\nname = %q\nversion = \"2.4.0\"\nedition = \"2021\"\n", name),
			"src/main.rs":  "fn main() {\n    println!(\"indexing\");\n}\n",
			"src/lib.rs":   "pub mod index;\n",
			"src/index.rs": "pub struct Index;\n",
		}
	case langPython:
		mod := pythonName(name)
		return map[string]string{
			"README.md":                   readme,
			".gitignore":                  "__pycache__/\n.venv/\n.env\n",
			"pyproject.toml":              fmt.Sprintf("[project]\nname = %q\nversion = \"1.8.0\"\nrequires-python = \">=3.11\"\n", name),
			"src/" + mod + "/__init__.py": "",
			"src/" + mod + "/core.py":     "def run():\n    pass\n",
			"src/" + mod + "/cli.py":      "from .core import run\n",
			"tests/test_core.py":          "from " + mod + ".core import run\n\n\ndef test_run():\n    run()\n",
		}
	case langDocs:
		return map[string]string{
			"README.md":                         readme,
			".gitignore":                        "/public/\n",
			"config.toml":                       "title = \"Acme developer docs\"\n",
			"content/_index.md":                 "# Acme developer docs\n",
			"content/guides/getting-started.md": "# Getting started\n",
			"content/guides/webhooks.md":        "# Webhooks\n",
			"content/reference/payments-api.md": "# Payments API\n",
			"content/reference/errors.md":       "# Errors\n",
			"layouts/partials/header.html":      "<header>Acme</header>\n",
		}
	case langTerraform:
		return map[string]string{
			"README.md":             readme,
			".gitignore":            ".terraform/\n*.tfstate\n*.tfstate.*\n",
			"main.tf":               "terraform {\n  required_version = \">= 1.6\"\n}\n",
			"variables.tf":          "variable \"region\" {\n  default = \"eu-west-1\"\n}\n",
			"outputs.tf":            "output \"vpc_id\" {\n  value = module.vpc.id\n}\n",
			"modules/vpc/main.tf":   "resource \"aws_vpc\" \"main\" {\n  cidr_block = \"10.0.0.0/16\"\n}\n",
			"modules/rds/main.tf":   "resource \"aws_db_instance\" \"ledger\" {}\n",
			"envs/prod/backend.tf":  "terraform {\n  backend \"s3\" {}\n}\n",
			"envs/stage/backend.tf": "terraform {\n  backend \"s3\" {}\n}\n",
		}
	case langK8s:
		return map[string]string{
			"README.md":                         readme,
			"base/deployment.yaml":              "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: payments\n",
			"base/service.yaml":                 "apiVersion: v1\nkind: Service\nmetadata:\n  name: payments\n",
			"base/kustomization.yaml":           "resources:\n  - deployment.yaml\n  - service.yaml\n",
			"overlays/prod/kustomization.yaml":  "resources:\n  - ../../base\n",
			"overlays/stage/kustomization.yaml": "resources:\n  - ../../base\n",
		}
	case langProto:
		return map[string]string{
			"README.md":                       readme,
			"buf.yaml":                        "version: v2\n",
			"acme/payments/v1/payments.proto": "syntax = \"proto3\";\npackage acme.payments.v1;\n",
			"acme/ledger/v1/ledger.proto":     "syntax = \"proto3\";\npackage acme.ledger.v1;\n",
			"acme/auth/v1/auth.proto":         "syntax = \"proto3\";\npackage acme.auth.v1;\n",
			"acme/payouts/v1/payouts.proto":   "syntax = \"proto3\";\npackage acme.payouts.v1;\n",
			"acme/common/v1/money.proto":      "syntax = \"proto3\";\npackage acme.common.v1;\n",
		}
	case langShell:
	}
	// langShell (and any language added without files of its own).
	return map[string]string{
		"README.md":    readme,
		"bootstrap.sh": "#!/bin/sh\nset -eu\necho bootstrapping\n",
		"lint.sh":      "#!/bin/sh\nset -eu\nshellcheck ./*.sh\n",
		"aliases.sh":   "alias gs='git status'\n",
		"gitconfig":    "[pull]\n\trebase = true\n",
	}
}

// pythonName is a Python package name made of name.
func pythonName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case r == '-' || r == '_':
			if b.Len() > 0 {
				b.WriteByte('_')
			}
		}
	}
	if s := strings.Trim(b.String(), "_"); s != "" {
		return s
	}
	return "app"
}

// commentLine is text as a comment line of the file name, newline ended.
func commentLine(name, text string) string {
	switch path.Ext(name) {
	case ".go", ".ts", ".tsx", ".rs", ".proto":
		return "// " + text + "\n"
	case ".md", ".html":
		return "<!-- " + text + " -->\n"
	}
	return "# " + text + "\n"
}

// subjects are the commit messages of each lang.
var subjects = map[lang][]string{
	langGo: {
		"Add retries with exponential backoff to the outbound client",
		"Fix race in the reconciliation worker",
		"Bump golang.org/x/net from 0.37.0 to 0.38.0",
		"Return 409 on duplicate idempotency keys",
		"Log request IDs in every handler",
		"Move config loading into internal/config",
		"Add Prometheus metrics for queue depth",
		"Fix off-by-one in pagination cursor",
		"Drop the legacy v1 endpoints",
		"Use context deadlines for database calls",
		"Document how to run the service locally",
		"Make the migration idempotent",
		"Bump github.com/jackc/pgx/v5 from 5.7.2 to 5.7.4",
		"Handle currency rounding for JPY",
	},
	langTS: {
		"Add dark mode toggle",
		"Fix CSV export dropping the last row",
		"Bump vite from 6.2.0 to 6.2.3",
		"Debounce the search box",
		"Show a skeleton while invoices load",
		"Move API calls behind useQuery",
		"Fix timezone shift in date pickers",
		"Add aria labels to the nav",
		"Split the settings page into tabs",
		"Bump react from 19.0.0 to 19.1.0",
		"Cache the session for five minutes",
	},
	langRust: {
		"Speed up tokenization with a lookup table",
		"Fix panic on empty documents",
		"Bump tokio from 1.43.0 to 1.44.1",
		"Add a --dry-run flag",
		"Batch writes to the index",
		"Release 2.4.0",
	},
	langPython: {
		"Add a CLI entry point",
		"Fix unicode normalisation of names",
		"Bump pydantic from 2.10.6 to 2.11.1",
		"Cache model features between runs",
		"Add tests for the scoring edge cases",
		"Type-annotate the public API",
		"Handle missing fields in the input",
	},
	langDocs: {
		"Document webhook signatures",
		"Fix broken links in the API reference",
		"Add a getting started guide",
		"Explain idempotency keys",
		"Update error codes for v2",
		"Add a page on rate limits",
	},
	langTerraform: {
		"Add read replica for the ledger database",
		"Tighten the payments security group",
		"Bump the AWS provider to 5.92",
		"Move state to the new S3 bucket",
		"Add the stage environment",
		"Enable deletion protection on RDS",
		"Tag every resource with its cost centre",
	},
	langK8s: {
		"Raise payments memory limit to 512Mi",
		"Add a PodDisruptionBudget for the API",
		"Roll out notifications v3.2.0",
		"Add readiness probes",
		"Pin images by digest",
		"Add the stage overlay",
	},
	langProto: {
		"Add Refund message",
		"Deprecate Payment.legacy_id",
		"Add currency to Money",
		"Add the Payouts service",
		"Reserve removed field numbers",
	},
	langShell: {
		"Add a bootstrap script for new laptops",
		"Make the lint script POSIX",
		"Add aliases for kubectl",
		"Fix quoting in bootstrap",
		"Use rebase on pull",
	},
}
