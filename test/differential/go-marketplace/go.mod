module ongridskill/mpharness

go 1.19

require gopkg.in/yaml.v3 v3.0.1

replace gopkg.in/yaml.v3 => /usr/share/gocode/src/gopkg.in/yaml.v3
