"""Registry-extension review: static review of primitive implementations (SI501–SI507),
profile diffs, and the re-evaluation of the fixtures a change reaches (`si-lint review`)."""
