package io.gpumeter.alert.rest;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import java.util.AbstractList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/** The calls a stand-in logged that this journal counts, oldest first, from a test's {@code clear()} on. */
class CallJournal<T> extends AbstractList<T> {

    private final Function<LoggedRequest, T> view;
    private volatile int from;
    static volatile Supplier<List<LoggedRequest>> logged = List::of;

    CallJournal(Function<LoggedRequest, T> view) {
        this.view = view;
    }

    boolean counts(LoggedRequest request) {
        return true;
    }

    private List<LoggedRequest> logged() {
        List<LoggedRequest> all = logged.get().stream().filter(this::counts).toList();
        return all.subList(Math.min(from, all.size()), all.size());
    }

    @Override
    public T get(int index) {
        return view.apply(logged().get(index));
    }

    @Override
    public int size() {
        return logged().size();
    }

    /** Forgets the calls so far: a test counts from here. */
    @Override
    public void clear() {
        from += size();
    }

    /** Every call counted again: the stand-in's own journal was emptied. */
    void restart() {
        from = 0;
    }
}
