"""The study-guide engine: load -> validate -> link -> render -> emit.

Each stage is a module with one public entry point that takes the previous
stage's output and returns a new value.  Only `load` reads files and only
`emit` knows about MkDocs, so tests can drive the whole engine on an
in-memory corpus without building a site.
"""
