"""The loader parses with libyaml's CSafeLoader when PyYAML has it, and the pure-Python SafeLoader otherwise:
both must read the shipped files to the same data and refuse the same unsafe or broken input."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from knowledge import loader
from knowledge.errors import KnowledgeDataError

PARSERS = [pytest.param(yaml.SafeLoader, id="SafeLoader")]
if yaml.__with_libyaml__:
    PARSERS.append(pytest.param(yaml.CSafeLoader, id="CSafeLoader"))


def test_the_c_parser_is_used_when_pyyaml_has_it() -> None:
    expected = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
    assert loader.YamlLoader is expected


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("path", loader._yaml_files(loader.SHIPPED_DIR), ids=lambda p: p.name)
def test_both_parsers_read_the_shipped_files_alike(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert yaml.load(text, Loader=yaml.CSafeLoader) == yaml.load(text, Loader=yaml.SafeLoader)


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML was built without libyaml")
def test_both_parsers_build_the_same_knowledge_base(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "YamlLoader", yaml.SafeLoader)
    pure_python = loader.load_knowledge([loader.SHIPPED_DIR])
    monkeypatch.setattr(loader, "YamlLoader", yaml.CSafeLoader)
    with_libyaml = loader.load_knowledge([loader.SHIPPED_DIR])
    assert with_libyaml == pure_python


@pytest.mark.parametrize("parser", PARSERS)
def test_python_tags_are_refused(parser: type, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "YamlLoader", parser)
    (tmp_path / "evil.yaml").write_text("models: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(KnowledgeDataError, match="not valid YAML"):
        loader.load_knowledge([tmp_path])


@pytest.mark.parametrize("parser", PARSERS)
def test_broken_yaml_names_the_file(parser: type, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "YamlLoader", parser)
    (tmp_path / "broken.yaml").write_text("models:\n  - id: [unclosed\n", encoding="utf-8")
    with pytest.raises(KnowledgeDataError, match=r"broken\.yaml"):
        loader.load_knowledge([tmp_path])
