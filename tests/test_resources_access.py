"""The program's data files are found through inspector.resources_access, by name, from
the source tree (here) and from an installed wheel (tests/packaging); the README and the
docs link only to files inside the project."""

import json
import re
from pathlib import Path

import pytest

from inspector import resources_access

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", resources_access.RUNTIME)
def test_each_runtime_resource_is_found(name):
    path = resources_access.resource_path(name)
    assert path.is_file()
    assert path.read_bytes() == resources_access.read_bytes(name) != b""
    assert resources_access.exists(name)


def test_in_a_checkout_they_are_the_top_level_resources_folder():
    assert Path(str(resources_access.files())).resolve() == ROOT / "resources"
    assert resources_access.resource_path("samples/demo.txt") == ROOT / "resources" / "samples" / "demo.txt"


def test_palettes_are_json_with_the_same_roles():
    assert resources_access.names("palettes", ".json") == ["dark.json", "light.json"]
    light = json.loads(resources_access.read_text("palettes/light.json"))
    dark = json.loads(resources_access.read_text("palettes/dark.json"))
    assert light.keys() == dark.keys() and light


def test_a_missing_or_climbing_name_is_refused():
    with pytest.raises(resources_access.ResourceMissing, match="reinstall"):
        resources_access.resource("palettes/none.json")
    assert not resources_access.exists("palettes/none.json")
    for bad in ("../pyproject.toml", "samples/../../README.md", "", "/"):
        with pytest.raises(ValueError):
            resources_access.resource(bad)
    assert resources_access.names("no-such-folder") == []


def test_the_demo_of_the_window_launcher_is_the_packaged_one():
    from inspector.cli.window import demo_sample

    assert Path(demo_sample()) == resources_access.resource_path(resources_access.DEMO_SAMPLE)


def _links(markdown: str) -> list[str]:
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", markdown) if "://" not in t
            and not t.startswith(("#", "mailto:"))]


def test_the_docs_link_and_show_only_files_that_ship():
    for doc in resources_access.names("docs", ".md"):
        for target in _links(resources_access.read_text(f"docs/{doc}")):
            name = (Path("docs") / target.split("#")[0]).as_posix()
            parts = []
            for part in name.split("/"):
                if part == "..":
                    parts.pop()
                else:
                    parts.append(part)
            assert resources_access.exists("/".join(parts)), f"{doc} links to {target}, which does not ship"


def test_the_user_guide_shows_each_tool():
    guide = resources_access.read_text("docs/user-guide.md")
    for shot in ("main-window", "sequence-inspector", "problem-list", "overview", "statistics",
                 "find-bar", "encoder", "reference", "repair-dialog", "dark"):
        assert f"](../screenshots/{shot}.png)" in guide


def test_the_readme_links_only_inside_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    for target in _links(readme):
        path = target.split("#")[0]
        assert not path.startswith(("/", "..")), target
        assert (ROOT / path).exists(), f"README links to {target}, which is not in the project"
