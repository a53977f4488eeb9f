package io.gpumeter.launcher.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code --flag}, {@code --option value} and {@code --option=value}; anything unknown is refused. */
public final class Arguments {

    private final Set<String> flags = new HashSet<>();
    private final Map<String, String> values = new HashMap<>();

    private Arguments() {
    }

    public static Arguments parse(List<String> args, Set<String> knownFlags, Set<String> knownOptions) {
        Arguments parsed = new Arguments();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (knownFlags.contains(name) && value == null) {
                parsed.flags.add(name);
            } else if (knownOptions.contains(name)) {
                if (value == null) {
                    if (i + 1 >= args.size()) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                parsed.values.put(name, value);
            } else {
                throw new UsageException("unknown option --" + name);
            }
        }
        return parsed;
    }

    public boolean flag(String name) {
        return flags.contains(name);
    }

    public Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    public long longValue(String name, long fallback) {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number, got '" + v + "'");
        }
    }

    public int intValue(String name, int fallback) {
        long v = longValue(name, fallback);
        if (v < 0 || v > 65535) {
            throw new UsageException("--" + name + " must be between 0 and 65535, got " + v);
        }
        return (int) v;
    }

    public Optional<Path> path(String name) {
        return value(name).map(Path::of);
    }

    /** An RFC 3339 instant such as {@code 2026-11-30T12:00:00Z}. */
    public Optional<Instant> instant(String name) {
        return value(name).map(v -> {
            try {
                return Instant.parse(v);
            } catch (DateTimeParseException e) {
                throw new UsageException("--" + name + " must be an RFC 3339 instant like 2026-11-30T12:00:00Z, got '"
                        + v + "'");
            }
        });
    }
}
