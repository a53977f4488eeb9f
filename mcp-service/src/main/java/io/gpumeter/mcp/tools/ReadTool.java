package io.gpumeter.mcp.tools;

import java.util.List;
import java.util.Optional;

/**
 * One MCP tool: a read-only REST read of one service, with the read's own parameters as arguments.
 *
 * @param path         the read's path; {@code {name}} is filled from the argument of that name
 * @param rowsAt       where the answer's rows are: {@code ""} for an answer that is a list, a field name for an
 *                     object holding its list there, empty for an answer that is one object
 * @param closedFields fields of an answer object whose values come from closed sets (enum constants), which alone
 *                     may appear in the summary's words beside the arguments and counts
 */
public record ReadTool(String name, String title, String description, Backend backend, String path,
                       List<ToolArg> args, Optional<String> rowsAt, List<String> closedFields) {

    public ReadTool {
        args = List.copyOf(args);
        closedFields = List.copyOf(closedFields);
    }

    /** The path with every {@code {…}} segment as a plain one, as the access table matches it. */
    public String pathPattern() {
        return path.replaceAll("\\{[^}]+}", "x");
    }

    /** Whether the answer is a list, read with {@code limit} so that only the rows shown cross the wire. */
    public boolean pagedList() {
        return rowsAt.map(String::isEmpty).orElse(false);
    }

    public Optional<ToolArg> arg(String name) {
        return args.stream().filter(a -> a.name().equals(name)).findFirst();
    }
}
