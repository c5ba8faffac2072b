module ongridskill/harness

go 1.19
