package io.gpumeter.mcp.tools;

import java.util.List;

/**
 * One argument of a tool, named as the REST read's query parameter (or path segment) it becomes.
 *
 * @param names whether the argument names something a tenant owns (a pod, namespace, service, tenant or card): the
 *              tenant-escape tests try other tenants' names in every such argument
 */
public record ToolArg(String name, ArgKind kind, boolean required, String description, List<String> choices,
                      boolean names) {

    public ToolArg {
        choices = List.copyOf(choices);
    }

    static ToolArg instant(String name, String description) {
        return new ToolArg(name, ArgKind.INSTANT, false, description, List.of(), false);
    }

    static ToolArg required(ToolArg arg) {
        return new ToolArg(arg.name, arg.kind, true, arg.description, arg.choices, arg.names);
    }

    static ToolArg name(String name, String description) {
        return new ToolArg(name, ArgKind.NAME, false, description, List.of(), true);
    }

    static ToolArg choice(String name, String description, String... choices) {
        return new ToolArg(name, ArgKind.CHOICE, false, description, List.of(choices), false);
    }

    static ToolArg choices(String name, String description, String... choices) {
        return new ToolArg(name, ArgKind.CHOICES, false, description, List.of(choices), false);
    }

    static ToolArg of(String name, ArgKind kind, String description) {
        return new ToolArg(name, kind, false, description, List.of(), false);
    }
}
