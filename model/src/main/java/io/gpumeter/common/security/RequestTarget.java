package io.gpumeter.common.security;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A request's path and query, parsed once, so that who may see what is decided on what the framework will
 * dispatch and bind — never on raw text that another reader could spell differently. Path segments are
 * percent-decoded one by one ({@code +} stays a plus); query names and values are decoded as a form ({@code +} is
 * a space), the way the framework binds them. A path with empty segments ({@code //}, a trailing slash), dot
 * segments ({@code .}, {@code ..}, also percent-encoded), matrix parameters ({@code ;}) or broken escapes is not
 * canonical: {@link #problem()} says why, and such a request is refused rather than interpreted.
 *
 * @param segments the decoded path segments
 * @param query    the decoded query parameters, in order
 * @param problem  why the path is not canonical, or null when it is
 */
public record RequestTarget(List<String> segments, List<Param> query, String problem) {

    /** One query parameter, decoded. */
    public record Param(String name, String value) {
    }

    public static RequestTarget parse(String rawPath, String rawQuery) {
        List<String> segments = new ArrayList<>();
        String problem = null;
        String path = rawPath == null ? "" : rawPath;
        if (!path.startsWith("/")) {
            problem = "the path must start with /";
        }
        String[] pieces = path.split("/", -1);
        for (int i = 1; i < pieces.length; i++) {
            String raw = pieces[i];
            if (raw.isEmpty()) {
                if (path.length() > 1 || i < pieces.length - 1) {
                    problem = problem != null ? problem : "the path has an empty segment (// or a trailing /)";
                }
                continue;
            }
            if (raw.indexOf(';') >= 0) {
                problem = problem != null ? problem : "the path carries ';' parameters";
                // the router drops matrix parameters before matching, so the segment is what precedes them
                raw = raw.substring(0, raw.indexOf(';'));
            }
            Optional<String> decoded = decode(raw, false);
            if (decoded.isEmpty()) {
                problem = problem != null ? problem : "the path has a broken %-escape";
                segments.add(raw);
                continue;
            }
            if (decoded.get().equals(".") || decoded.get().equals("..")) {
                problem = problem != null ? problem : "the path has a '.' or '..' segment";
            }
            segments.add(decoded.get());
        }
        List<Param> query = new ArrayList<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String piece : rawQuery.split("&", -1)) {
                if (piece.isEmpty()) {
                    continue;
                }
                int eq = piece.indexOf('=');
                Optional<String> name = decode(eq < 0 ? piece : piece.substring(0, eq), true);
                Optional<String> value = decode(eq < 0 ? "" : piece.substring(eq + 1), true);
                if (name.isEmpty() || value.isEmpty()) {
                    problem = problem != null ? problem : "the query has a broken %-escape";
                    continue;
                }
                query.add(new Param(name.get(), value.get()));
            }
        }
        return new RequestTarget(List.copyOf(segments), List.copyOf(query), problem);
    }

    public boolean canonical() {
        return problem == null;
    }

    /** The path as the framework routes it: dot segments resolved, empty segments dropped. */
    public String normalizedPath() {
        List<String> out = new ArrayList<>();
        for (String s : segments) {
            if (s.equals("..")) {
                if (!out.isEmpty()) {
                    out.remove(out.size() - 1);
                }
            } else if (!s.equals(".")) {
                out.add(s);
            }
        }
        return "/" + String.join("/", out);
    }

    /** Whether the request addresses the API, however its path is spelled. */
    public boolean underApi() {
        String normalized = normalizedPath();
        return normalized.equals("/api") || normalized.startsWith("/api/");
    }

    /**
     * Every value given to a parameter the framework would bind to {@code name}: names compared without regard to
     * case or surrounding blanks, so no spelling of the name escapes the decision.
     */
    public List<String> values(String name) {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        return query.stream().filter(p -> p.name().strip().toLowerCase(Locale.ROOT).equals(wanted)).map(Param::value).toList();
    }

    /**
     * The query, encoded afresh from what was parsed, with every spelling of {@code name} removed and
     * {@code name=value} as its only value.
     */
    public String queryWithOnly(String name, String value) {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        List<String> kept = new ArrayList<>();
        for (Param p : query) {
            if (!p.name().strip().toLowerCase(Locale.ROOT).equals(wanted)) {
                kept.add(encode(p.name()) + "=" + encode(p.value()));
            }
        }
        kept.add(encode(name) + "=" + encode(value));
        return String.join("&", kept);
    }

    private static String encode(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Strict percent-decoding as UTF-8; empty for a broken escape, a raw non-ASCII character, or bytes that are not UTF-8. */
    static Optional<String> decode(String text, boolean plusIsSpace) {
        byte[] bytes = new byte[text.length()];
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (i + 2 >= text.length()) {
                    return Optional.empty();
                }
                int hi = Character.digit(text.charAt(i + 1), 16);
                int lo = Character.digit(text.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return Optional.empty();
                }
                bytes[n++] = (byte) (hi * 16 + lo);
                i += 2;
            } else if (c > 0x7e || c < 0x20) {
                // a URI carries only printable ASCII; anything else is refused rather than guessed at
                return Optional.empty();
            } else {
                bytes[n++] = (byte) (plusIsSpace && c == '+' ? ' ' : c);
            }
        }
        java.nio.charset.CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        try {
            return Optional.of(utf8.decode(java.nio.ByteBuffer.wrap(bytes, 0, n)).toString());
        } catch (java.nio.charset.CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
