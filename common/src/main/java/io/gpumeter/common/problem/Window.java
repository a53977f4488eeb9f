package io.gpumeter.common.problem;

/**
 * The part of a list one request asks for with {@code ?limit=} and {@code ?offset=}; without either it is the whole
 * list ({@code limit} null), and {@code offset} alone pages by {@link Pages#MAX_LIMIT}.
 */
public record Window(Integer limit, int offset) {

    /** The whole list, as a request without {@code limit} and {@code offset} gets it. */
    public static final Window WHOLE = new Window(null, 0);

    public Window {
        if (limit != null && (limit < 1 || limit > Pages.MAX_LIMIT)) {
            throw ApiProblem.badRequest("limit", "limit must be between 1 and " + Pages.MAX_LIMIT);
        }
        if (offset < 0) {
            throw ApiProblem.badRequest("offset", "offset must be between 0 and " + Integer.MAX_VALUE);
        }
    }

    /** The window the raw query values name; a bad value is a 400 problem on its field. */
    public static Window of(String limit, String offset) {
        if (limit == null && offset == null) {
            return WHOLE;
        }
        int l = limit == null ? Pages.MAX_LIMIT : (int) Pages.bound(limit, "limit", 1, Pages.MAX_LIMIT);
        int o = offset == null ? 0 : (int) Pages.bound(offset, "offset", 0, Integer.MAX_VALUE);
        return new Window(l, o);
    }

    /** Whether the request asked for the whole list, which then comes without paging headers. */
    public boolean whole() {
        return limit == null;
    }
}
