module rootpick.local/tapecheck

go 1.26.7

require github.com/charmbracelet/vhs v0.10.0
