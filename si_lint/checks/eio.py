"""EIO101–EIO117 and the EIO fixture dry run EIO401 (SPEC §6, §8): :mod:`si_lint.eio.lint`,
imported when one runs."""

from __future__ import annotations

from si_lint.checks.base import corpus_check, file_check

# by what each rule needs: one module; every EIO module of the corpus (and an EIO fixture)
MODULE_CODES = ["EIO101", "EIO104", "EIO105", "EIO106", "EIO107", "EIO108", "EIO109"]
MODULE_CODES += ["EIO110", "EIO111", "EIO114", "EIO116"]
CORPUS_CODES = ("EIO102", "EIO103", "EIO112", "EIO113", "EIO115", "EIO117", "EIO401")


@file_check(*MODULE_CODES, kinds=("eio-module",))
def eio_module_rules(doc, ctx):
    from si_lint.eio import lint

    yield from lint.module_diags(doc.data, doc.relpath)


@corpus_check(*CORPUS_CODES, reads=("eio",))
def eio_corpus_rules(corpus, ctx):
    from si_lint.eio import lint, refs

    index = refs.index_of(corpus.of_kind("eio-module"))
    yield from lint.corpus_diags(index)
    for doc in corpus.of_kind("eio-input"):
        yield from lint.fixture_diags(doc.relpath, doc.data, index, doc.index)
