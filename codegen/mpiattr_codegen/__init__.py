"""mpiattr_codegen: spec/*.toml -> typed model -> Jinja2 templates -> bindings in the build tree."""
