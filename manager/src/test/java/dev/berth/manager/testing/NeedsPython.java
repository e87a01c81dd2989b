package dev.berth.manager.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The test needs Debian's python3-kubernetes; run the group alone with {@code -Dgroups=python}, or leave it out with {@code -DexcludedGroups=python}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("python")
public @interface NeedsPython {}
