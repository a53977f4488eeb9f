package io.gpumeter.mcp.tools;

import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A tool call's arguments checked against the tool's own and turned into the REST read's path and query: an
 * argument the tool does not take, a missing required one, or a value out of its format is a {@link BadArgument}
 * before any service is called. Values are passed on as given (instants as written), so the REST URL in the answer
 * reads as the caller asked.
 */
public final class Arguments {

    private static final Pattern DAYS = Pattern.compile("\\d{1,4}d?");
    /** One line of printable text: a name never carries control characters, and no name is longer. */
    private static final Pattern NAME = Pattern.compile("[^\\p{Cntrl}]{1,253}");

    private Arguments() {
    }

    /** The checked values by argument name, in the tool's order; absent optional arguments are left out. */
    public static Map<String, String> read(ReadTool tool, Map<String, Object> given) {
        Map<String, Object> args = given == null ? Map.of() : given;
        for (String name : args.keySet()) {
            if (tool.arg(name).isEmpty()) {
                throw new BadArgument(name, "the tool " + tool.name() + " takes no such argument; it takes "
                        + tool.args().stream().map(ToolArg::name).toList() + ".");
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (ToolArg arg : tool.args()) {
            Object value = args.get(arg.name());
            if (value == null || value.toString().isBlank()) {
                if (arg.required()) {
                    throw new BadArgument(arg.name(), "it is required: " + arg.description());
                }
                continue;
            }
            out.put(arg.name(), check(arg, value));
        }
        return out;
    }

    private static String check(ToolArg arg, Object value) {
        String text = (value instanceof String s ? s : String.valueOf(value)).strip();
        switch (arg.kind()) {
            case INSTANT -> {
                try {
                    OffsetDateTime.parse(text);
                } catch (DateTimeParseException e) {
                    throw new BadArgument(arg.name(), "expected an RFC 3339 instant such as 2026-11-02T10:00:00Z.");
                }
            }
            case MONTH -> {
                try {
                    YearMonth.parse(text);
                } catch (DateTimeParseException e) {
                    throw new BadArgument(arg.name(), "expected a month as YYYY-MM, e.g. 2026-11.");
                }
            }
            case CHOICE -> {
                if (!arg.choices().contains(text)) {
                    throw new BadArgument(arg.name(), "expected one of " + arg.choices() + ".");
                }
            }
            case CHOICES -> {
                List<String> parts = List.of(text.split(",", -1));
                if (parts.stream().anyMatch(p -> !arg.choices().contains(p.strip()))) {
                    throw new BadArgument(arg.name(), "expected one or more of " + arg.choices() + ", comma-separated.");
                }
            }
            case DAYS -> {
                if (!DAYS.matcher(text).matches()) {
                    throw new BadArgument(arg.name(), "expected a number of days such as 30d.");
                }
            }
            case FLAG -> {
                if (!text.equals("true") && !text.equals("false")) {
                    throw new BadArgument(arg.name(), "expected true or false.");
                }
            }
            case NAME -> {
                if (!(value instanceof String) || !NAME.matcher(text).matches()) {
                    throw new BadArgument(arg.name(), "expected a name: one line of text of at most 253 characters.");
                }
            }
        }
        return text;
    }
}
