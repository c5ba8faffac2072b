module {{name}}

go 1.19
