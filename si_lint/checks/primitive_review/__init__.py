"""The static review of primitive implementations (SI501–SI507, SPEC §2.1): parsed with
libcst, never imported. Importing this package loads nothing (``all_checks`` imports it)."""
