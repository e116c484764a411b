"""``evalsubmit generate-shell-completion bash|zsh|fish``: a completion script written from the
command line's own parser, so it completes exactly the commands, options and choices that
exist (ruff's ``generate-shell-completion``). No dependency: ``shtab`` knows no fish, and the
three scripts need only each option's names, whether it takes a value, and its choices.

bash: ``eval "$(evalsubmit generate-shell-completion bash)"``; zsh: the bash function under
``bashcompinit`` (zsh's own bridge for bash completions); fish: ``complete`` lines.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from evalsubmit.cli.common import EXIT_CLEAN
from evalsubmit.core.records import record

SHELLS = ("bash", "zsh", "fish")
PROG = "evalsubmit"
FILE_VALUES = frozenset({"PATH", "FILE"})
"""Metavars of options whose value is a path: completed with file names."""


def add_parser(commands: Any) -> None:
    completion = commands.add_parser(
        "generate-shell-completion", help="print a completion script for bash, zsh or fish"
    )
    completion.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    completion.set_defaults(handler=run)


@record
class Option:
    names: tuple[str, ...]
    takes_value: bool
    choices: tuple[str, ...] = ()
    files: bool = False
    help: str = ""


@record
class Command:
    name: str
    help: str
    options: tuple[Option, ...]
    positional_choices: tuple[str, ...] = ()
    """Words the command's positional argument takes (``rule``: the codes and names)."""
    positional_files: bool = True


def run(args: argparse.Namespace) -> int:
    from evalsubmit.cli.main import _parser

    commands, top = described(_parser())
    script = {"bash": bash, "zsh": zsh, "fish": fish}[args.shell](commands, top)
    sys.stdout.write(script)
    return EXIT_CLEAN


def described(parser: argparse.ArgumentParser) -> tuple[list[Command], list[Option]]:
    """The commands (with their options) and the top-level options of ``parser``."""
    top = _options(parser)
    commands: list[Command] = []
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
        for name, sub in action.choices.items():
            positional = [a for a in sub._actions if not a.option_strings]
            choices: tuple[str, ...] = ()
            for argument in positional:
                if argument.choices is not None:
                    choices = tuple(str(c) for c in argument.choices)
            if name == "rule":
                choices = _rule_words()
            files = name in ("check", "preview", "submit")
            commands.append(
                Command(name, helps.get(name, ""), tuple(_options(sub)), choices, files)
            )
    return commands, top


def _rule_words() -> tuple[str, ...]:
    from evalsubmit.analysis.rules import RULES

    return tuple(word for rule in RULES.values() for word in (rule.code, rule.kind))


def _options(parser: argparse.ArgumentParser) -> list[Option]:
    found: list[Option] = []
    for action in parser._actions:
        if not action.option_strings:
            continue
        takes_value = action.nargs != 0
        choices = tuple(str(c) for c in action.choices) if action.choices is not None else ()
        metavar = action.metavar if isinstance(action.metavar, str) else ""
        help_text = "" if action.help in (None, argparse.SUPPRESS) else str(action.help)
        files = takes_value and not choices and metavar in FILE_VALUES
        found.append(Option(tuple(action.option_strings), takes_value, choices, files, help_text))
    return found


def _words(options: list[Option] | tuple[Option, ...]) -> str:
    return " ".join(name for option in options for name in option.names)


def bash(commands: list[Command], top: list[Option]) -> str:
    names = " ".join(command.name for command in commands)
    cases: list[str] = []
    for command in commands:
        values: list[str] = []
        for option in command.options:
            if not option.takes_value:
                continue
            pattern = "|".join(option.names)
            if option.choices:
                words = shlex.quote(" ".join(option.choices))
                values.append(
                    f'            {pattern}) COMPREPLY=($(compgen -W {words} -- "$cur")); return;;'
                )
            elif option.files:
                values.append(
                    f'            {pattern}) COMPREPLY=($(compgen -f -- "$cur")); return;;'
                )
            else:
                values.append(f"            {pattern}) return;;")
        positional = (
            _reply(shlex.quote(" ".join(command.positional_choices)))
            if command.positional_choices
            else 'COMPREPLY=($(compgen -f -- "$cur"))'
            if command.positional_files
            else "COMPREPLY=()"
        )
        cases.append(
            f"        {command.name})\n"
            f'            case "$prev" in\n'
            + "".join(f"{line}\n" for line in values)
            + "            esac\n"
            f'            if [[ "$cur" == -* ]]; then\n'
            f"                {_reply(shlex.quote(_words(command.options)))}\n"
            "            else\n"
            f"                {positional}\n"
            "            fi\n"
            "            ;;\n"
        )
    return (
        f'# bash completion for {PROG}: eval "$({PROG} generate-shell-completion bash)"\n'
        f"_{PROG}() {{\n"
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"\n'
        '    local command="" i\n'
        "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        '        case "${COMP_WORDS[i]}" in\n'
        "            -*) ;;\n"
        '            *) command="${COMP_WORDS[i]}"; break;;\n'
        "        esac\n"
        "    done\n"
        '    case "$command" in\n'
        '        "")\n'
        f"            {_reply(shlex.quote(names + ' ' + _words(top)))}\n"
        "            ;;\n" + "".join(cases) + "    esac\n"
        "}\n"
        f"complete -o filenames -F _{PROG} {PROG}\n"
    )


def _reply(words: str) -> str:
    return f'COMPREPLY=($(compgen -W {words} -- "$cur"))'


def zsh(commands: list[Command], top: list[Option]) -> str:
    return (
        f"#compdef {PROG}\n"
        f'# zsh completion for {PROG}: eval "$({PROG} generate-shell-completion zsh)"\n'
        "# zsh's bridge for bash completion functions (compinit first, as it needs)\n"
        "autoload -U +X compinit && compinit\n"
        "autoload -U +X bashcompinit && bashcompinit\n" + bash(commands, top).split("\n", 1)[1]
    )


def fish(commands: list[Command], top: list[Option]) -> str:
    lines = [
        f"# fish completion for {PROG}: {PROG} generate-shell-completion fish | source",
        f"complete -c {PROG} -f",
    ]
    none = "__fish_use_subcommand"
    for option in top:
        lines.append(f"complete -c {PROG} -n {none}{_fish_option(option)}")
    for command in commands:
        lines.append(
            f"complete -c {PROG} -n {none} -a {command.name} -d {_fish_text(command.help)}"
        )
    for command in commands:
        seen = shlex.quote(f"__fish_seen_subcommand_from {command.name}")
        for option in command.options:
            lines.append(f"complete -c {PROG} -n {seen}{_fish_option(option)}")
        if command.positional_choices:
            words = shlex.quote(" ".join(command.positional_choices))
            lines.append(f"complete -c {PROG} -n {seen} -a {words}")
        elif command.positional_files:
            lines.append(f"complete -c {PROG} -n {seen} -F")
    return "\n".join(lines) + "\n"


def _fish_option(option: Option) -> str:
    parts = []
    for name in option.names:
        if name.startswith("--"):
            parts.append(f" -l {name[2:]}")
        elif len(name) == 2:
            parts.append(f" -s {name[1]}")
        else:
            parts.append(f" -o {name[1:]}")
    if option.choices:
        parts.append(f" -x -a {shlex.quote(' '.join(option.choices))}")
    elif option.files:
        parts.append(" -r -F")
    elif option.takes_value:
        parts.append(" -x")
    if option.help:
        parts.append(f" -d {_fish_text(option.help)}")
    return "".join(parts)


def _fish_text(text: str) -> str:
    first = text.split(";")[0].strip()
    return shlex.quote(first[:80])
