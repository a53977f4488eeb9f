package io.gpumeter.launcher.cli;

import io.gpumeter.common.security.Tokens;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Option values checked as they are read; each refusal says what was expected and what was given. */
public final class Converters {

    /** The highest base port whose last management port, the console's {@code N + 1006}, is still a port. */
    static final int MAX_BASE_PORT = 65535 - 1006;

    private Converters() {
    }

    /** A whole number such as a seed. */
    public static final class WholeNumber implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return wholeNumber(value);
        }
    }

    /** A TCP port, 0 for any free one. */
    public static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) between(value, 0, 65535);
        }
    }

    /** The base of the services' ports: collector on N+1 … billing's management port on N+1005. */
    public static final class BasePort implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) between(value, 0, MAX_BASE_PORT);
        }
    }

    /** A number of seconds, at least one. */
    public static final class Seconds implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return between(value, 1, Long.MAX_VALUE);
        }
    }

    /** An RFC 3339 instant in UTC such as {@code 2026-11-30T12:00:00Z}. */
    public static final class Rfc3339 implements ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            try {
                return Instant.parse(value.strip());
            } catch (DateTimeParseException e) {
                throw new TypeConversionException("must be an RFC 3339 instant like 2026-11-30T12:00:00Z, got '"
                        + value + "'");
            }
        }
    }

    /** A token's lifetime: an ISO-8601 duration from one minute to what the services accept. */
    public static final class Ttl implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration ttl;
            try {
                ttl = Duration.parse(value.strip());
            } catch (DateTimeParseException e) {
                throw new TypeConversionException("must be an ISO-8601 duration such as PT24H or P7D, got '" + value
                        + "'");
            }
            if (ttl.isNegative() || ttl.toMinutes() < 1) {
                throw new TypeConversionException("must be at least one minute, got '" + value + "'");
            }
            if (ttl.compareTo(Tokens.MAX_LIFETIME) > 0) {
                throw new TypeConversionException(value + " is longer than the services accept: at most P"
                        + Tokens.MAX_LIFETIME.toDays() + "D (gpumeter.auth.max-token-lifetime). Sign a new token "
                        + "before this one expires instead.");
            }
            return ttl;
        }
    }

    private static long wholeNumber(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("must be a whole number, got '" + value + "'");
        }
    }

    private static long between(String value, long min, long max) {
        long v = wholeNumber(value);
        if (v < min || v > max) {
            throw new TypeConversionException(max == Long.MAX_VALUE
                    ? "must be at least " + min + ", got " + v
                    : "must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }
}
