package io.gpumeter.common.problem;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.Function;

/**
 * One page of a list that the database cut, with the length of the whole list; it serialises as the plain list, and
 * {@link Pages} takes {@code X-Total-Count} and the next link from it instead of cutting again.
 */
public final class Page<T> extends AbstractList<T> implements RandomAccess {

    private final List<T> items;
    private final long total;

    private Page(List<T> items, long total) {
        this.items = List.copyOf(items);
        this.total = total;
    }

    public static <T> Page<T> of(List<T> items, long total) {
        if (total < items.size()) {
            throw new IllegalArgumentException("a page of " + items.size() + " items of a list of " + total);
        }
        return new Page<>(items, total);
    }

    /** The length of the whole list the page was cut from. */
    public long total() {
        return total;
    }

    /** The same page with each item mapped, for a view that shows stored rows. */
    public <R> Page<R> map(Function<? super T, ? extends R> mapper) {
        return new Page<>(items.stream().<R>map(mapper).toList(), total);
    }

    @Override
    public T get(int index) {
        return items.get(index);
    }

    @Override
    public int size() {
        return items.size();
    }
}
