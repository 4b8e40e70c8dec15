package sampleworkspace

import (
	"time"

	"github.com/rootpick/rootpick/vcsdetect"
)

const (
	hour  = time.Hour
	day   = 24 * time.Hour
	week  = 7 * day
	month = 30 * day
	year  = 365 * day
)

// gitRepos are the workspace's Git repositories, with what hangs off them
// (a linked worktree, a submodule). Ages count back from Create's now.
var gitRepos = []gitSpec{
	// services/: Go services of a payments company.
	{rel: "services/payments", lang: langGo, commits: 14, last: 3 * hour, span: 8 * month, author: 0,
		remote: "git@github.com:acme/payments.git", ahead: 1,
		files:  map[string]string{"internal/ledger/ledger.go": "package ledger\n\n// Post records a balanced entry.\nfunc Post() error { return nil }\n"},
		modify: []string{"internal/ledger/ledger.go"}},
	{rel: "services/payouts", lang: langGo, commits: 9, last: 2 * week, span: 5 * month, author: 1,
		remote:   "git@github.com:acme/payouts.git",
		branches: []branchSpec{{name: "feature/sepa-batching", from: 0, commits: 3, last: 26 * hour}},
		head:     "feature/sepa-batching", ahead: 2},
	{rel: "services/auth-svc", lang: langGo, commits: 21, last: 5 * day, span: 14 * month, author: 2,
		// The token is stripped wherever rootpick shows a remote.
		remote: "https://ci-bot:demo-token@git.acme.example/platform/auth-svc.git"},
	{rel: "services/secrets-api", lang: langGo, commits: 6, last: 3 * week, span: 2 * month, author: 3,
		remote: "git@github.com:acme/secrets-api.git",
		ignored: map[string]string{".env": "# Local settings: never commit, never share.\n" +
			"DATABASE_URL=postgres://secrets:changeme@localhost:5432/secrets\n" +
			"VAULT_TOKEN=demo-not-a-real-token\n"}},
	{rel: "services/notifications", lang: langGo, commits: 11, last: 9 * day, span: 6 * month, author: 4,
		remote: "git@github.com:acme/notifications.git", behind: 3},
	{rel: "services/ledger", lang: langGo, commits: 17, last: 40 * hour, span: 11 * month, author: 0,
		remote:    "git@github.com:acme/ledger.git",
		untracked: map[string]string{"migrations/0042_add_currency_index.sql": "CREATE INDEX ledger_entries_currency ON ledger_entries (currency);\n"}},
	{rel: "services/search-indexer", lang: langRust, commits: 8, last: 6 * week, span: 4 * month, author: 5,
		remote:   "git@github.com:acme/search-indexer.git",
		branches: []branchSpec{{name: "release/2.4", from: 2, commits: 1, last: 5 * week}},
		head:     "release/2.4"},
	{rel: "services/fraud-scoring", lang: langPython, commits: 7, last: 11 * day, span: 3 * month, author: 1,
		remote: "git@github.com:acme/fraud-scoring.git", detach: "v1.8.0"},

	// web/
	{rel: "web/web-frontend", lang: langTS, commits: 19, last: 50 * time.Minute, span: 10 * month, author: 2,
		remote: "git@github.com:acme/web-frontend.git",
		modify: []string{"src/index.ts"},
		// Installed dependencies: ignored by Git, and not walked by rootpick.
		ignored: map[string]string{
			"node_modules/left-pad/package.json":   `{"name": "left-pad", "version": "1.3.0"}` + "\n",
			"node_modules/left-pad/index.js":       "module.exports = leftPad;\n",
			"node_modules/react/package.json":      `{"name": "react", "version": "19.1.0"}` + "\n",
			"node_modules/.package-lock.json":      "{}\n",
			"node_modules/design-system/.git/HEAD": "ref: refs/heads/main\n",
		},
		submodules: []submoduleSpec{{path: "third_party/design-tokens", url: "https://github.com/acme/design-tokens.git",
			repo: gitSpec{lang: langTS, commits: 5, last: 4 * month, span: 3 * month, author: 4}}}},
	{rel: "web/admin-dashboard", lang: langTS, commits: 12, last: 2 * day, span: 7 * month, author: 4,
		remote:   "git@github.com:acme/admin-dashboard.git",
		branches: []branchSpec{{name: "fix/csv-export-timezones", from: 1, commits: 2, last: 20 * hour}},
		head:     "fix/csv-export-timezones"},
	{rel: "web/marketing-site", lang: langTS, commits: 10, last: 5 * week, span: 9 * month, author: 5,
		remote: "git@github.com:acme/marketing-site.git"},
	{rel: "web/docs-site", lang: langDocs, commits: 13, last: 4 * day, span: 12 * month, author: 3,
		remote:    "git@github.com:acme/docs.git",
		untracked: map[string]string{"content/guides/draft-refunds.md": "# Refunds (draft)\n\nTODO: screenshots.\n"}},

	// infra/
	{rel: "infra/terraform", lang: langTerraform, commits: 16, last: 6 * day, span: 13 * month, author: 1,
		remote:  "git@github.com:acme/terraform.git",
		ignored: map[string]string{".terraform/providers/registry.terraform.io/hashicorp/aws/README.md": "provider plugin cache\n"}},
	{rel: "infra/k8s-manifests", lang: langK8s, commits: 15, last: 7 * hour, span: 6 * month, author: 2,
		remote: "git@github.com:acme/k8s-manifests.git",
		modify: []string{"base/deployment.yaml"}},
	{rel: "infra/ci-templates", lang: langK8s, commits: 6, last: 2 * month, span: 5 * month, author: 0,
		remote: "git@github.com:acme/ci-templates.git"},

	// libs/: shared code, one repository with a linked worktree.
	{rel: "libs/go-common", lang: langGo, commits: 18, last: 3 * day, span: 16 * month, author: 0,
		remote:    "git@github.com:acme/go-common.git",
		branches:  []branchSpec{{name: "hotfix/retry-jitter", from: 0, commits: 1, last: 5 * hour}},
		worktrees: []worktreeSpec{{rel: "libs/go-common-retry-jitter", branch: "hotfix/retry-jitter"}}},
	{rel: "libs/ts-utils", lang: langTS, commits: 9, last: 3 * month, span: 8 * month, author: 3,
		remote: "git@github.com:acme/ts-utils.git"},
	{rel: "libs/proto-schemas", lang: langProto, commits: 12, last: 12 * day, span: 10 * month, author: 5,
		remote: "git@github.com:acme/proto-schemas.git"},
	{rel: "libs/rate-limiter", lang: langGo, commits: 5, last: 7 * month, span: 2 * month, author: 2},
	{rel: "libs/résumé-parser", lang: langPython, commits: 4, last: 10 * week, span: 3 * week, author: 4,
		remote: "git@github.com:acme/resume-parser.git"},

	// archive/: old work, untouched for years.
	{rel: "archive/2021/old-payments", lang: langGo, commits: 23, last: 4*year + 2*month, span: 2 * year, author: 1,
		remote: "git@github.com:acme/payments-legacy.git"},

	// tools/
	{rel: "tools/dev-scripts", lang: langShell, commits: 8, last: 13 * day, span: 9 * month, author: 3},
	{rel: "tools/release-bot", lang: langPython, commits: 10, last: 26 * day, span: 4 * month, author: 5,
		remote:    "git@github.com:acme/release-bot.git",
		untracked: map[string]string{"notes.txt": "ask infra about the new runner labels\n"}},
	// Tracked in a git folder kept apart from the work tree (git init
	// --separate-git-dir): vcsdetect reports a "gitfile".
	{rel: "tools/dotfiles", lang: langShell, commits: 6, last: 8 * week, span: 2 * year, author: 0,
		gitDir: ".git-dirs/dotfiles"},

	// mirrors/: a bare clone, as git clone --mirror makes.
	{rel: "mirrors/payments.git", lang: langGo, commits: 14, last: 1 * day, span: 8 * month, author: 0, bare: true},

	// experiments/
	{rel: "experiments/customer-onboarding-flow-redesign-2024-q3-prototype-with-feature-flags", lang: langTS,
		commits: 3, last: 11 * month, span: 2 * week, author: 2,
		branches: []branchSpec{{name: "spike/progressive-profiling", from: 0, commits: 2, last: 10 * month}},
		head:     "spike/progressive-profiling"},
	{rel: "experiments/ελληνικά-tokenizer", lang: langPython, commits: 5, last: 6 * week, span: 1 * month, author: 5},
	{rel: "experiments/llm-eval", lang: langPython, commits: 3, last: 4 * hour, span: 2 * day, author: 1,
		untracked: map[string]string{"results/run-17.jsonl": `{"case": 1, "score": 0.82}` + "\n"}},
}

// otherRepos are the repositories of other version control systems, the
// plain projects and the broken one: folders vcsdetect recognises by
// their markers.
var otherRepos = []otherSpec{
	{rel: "archive/2019/billing-hg", kind: vcsdetect.KindHg, branch: "stable",
		files: map[string]string{
			".hg/branch":        "stable\n",
			".hg/requires":      "dotencode\nfncache\ngeneraldelta\nrevlogv1\nsparserevlog\nstore\n",
			".hg/hgrc":          "[paths]\ndefault = https://hg.acme.example/billing\n",
			".hg/store/fncache": "data/invoice.py.i\n",
			"invoice.py":        "def total(lines):\n    return sum(l.amount for l in lines)\n",
			"README":            "Billing v1 (Mercurial). Replaced by services/payments in 2020.\n",
		}},
	{rel: "archive/2018/reports-svn", kind: vcsdetect.KindSvn,
		files: map[string]string{
			".svn/entries":     "12\n",
			".svn/format":      "12\n",
			".svn/wc.db":       "",
			"trunk/report.pl":  "#!/usr/bin/perl\nprint \"monthly report\\n\";\n",
			"trunk/README.txt": "Monthly reports, from the Subversion days.\n",
		}},
	{rel: "experiments/jj-playground", kind: vcsdetect.KindJJ,
		files: map[string]string{
			".jj/repo/store/type":       "git\n",
			".jj/repo/op_store/type":    "simple_op_store\n",
			".jj/repo/op_heads/type":    "simple_op_heads_store\n",
			".jj/working_copy/type":     "local\n",
			".jj/working_copy/checkout": "",
			"Cargo.toml":                "[package]\nname = \"jj-playground\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/lib.rs":                "pub fn hello() -> &'static str { \"hello\" }\n",
			"README.md":                 "Trying out Jujutsu.\n",
		}},
	// Projects in no repository: a folder with a build file.
	{rel: "experiments/rust-parser", kind: vcsdetect.KindProject,
		files: map[string]string{
			"Cargo.toml":                "[package]\nname = \"rust-parser\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/main.rs":               "fn main() {\n    println!(\"parse me\");\n}\n",
			"target/debug/.fingerprint": "", // build output: not walked
		}},
	{rel: "experiments/pricing-notebooks", kind: vcsdetect.KindProject,
		files: map[string]string{
			"pyproject.toml":       "[project]\nname = \"pricing-notebooks\"\nversion = \"0.0.0\"\n",
			"notebooks/elasticity": "price elasticity, Q3\n",
		}},
	// A worktree of go-common that was removed and pruned in go-common,
	// while its folder stayed behind: its .git file points nowhere.
	{rel: "libs/go-common-hotfix-1843", kind: vcsdetect.KindBroken,
		files: map[string]string{
			".git":      "gitdir: ../go-common/.git/worktrees/go-common-hotfix-1843\n",
			"retry.go":  "package common\n",
			"README.md": "# go-common\n",
		}},
}

// links are symbolic links to repositories: people keep a short name for
// what they work on most. A default scan does not follow them.
var links = []Link{
	{Rel: "payments", Target: "services/payments"},
}
