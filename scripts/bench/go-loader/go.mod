module ongridskill/benchloader

go 1.19
