package io.gpumeter.launcher.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code completion}: a bash (and zsh) completion script of every command and option. */
@Command(name = "completion", sortOptions = false,
        description = {"Prints a bash completion script for gpumeter's commands and options (zsh loads it too, "
                + "after autoload -U +X bashcompinit && bashcompinit).",
                "Load it in the current shell with: source <(./gpumeter completion)",
                "or keep it: ./gpumeter completion > ~/.local/share/bash-completion/completions/gpumeter"})
public final class CompletionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
        out.flush();
        return 0;
    }
}
