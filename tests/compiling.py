"""What Django's SQL compilers compile, counted: a compiled read or write must compile nothing the
second time (ludopat.compiled_reads, ludopat.compiled_writes)."""

from __future__ import annotations

from django.db.models.sql.compiler import SQLCompiler


def compilations(monkeypatch, *compilers: type[SQLCompiler]) -> list[str]:
    """From now on, the name of each compiler class whose `as_sql` runs, in order (SQLCompiler, the
    reads', and `compilers`)."""
    compiled: list[str] = []
    for compiler in (SQLCompiler, *compilers):
        real = compiler.as_sql

        def counted(self, *args, real=real, **kwargs):
            compiled.append(type(self).__name__)
            return real(self, *args, **kwargs)

        monkeypatch.setattr(compiler, "as_sql", counted)
    return compiled
