package dev.graphmend.bench;

import dev.graphmend.ir.grammar.PythonLexer;
import dev.graphmend.ir.grammar.PythonParser;
import dev.graphmend.ir.parse.PythonSourceParser;
import dev.graphmend.ir.source.SourceText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * The floor under {@code graphmend check}'s throughput (run by {@code bench/check-floor.sh}):
 * one stage of the front end over every {@code *.py} under a folder, in a fresh JVM, files in
 * parallel as {@code check} reads them. Each stage includes the ones before it:
 * {@code decode} (read and decode), {@code lex} (ANTLR's generated lexer), {@code parse}
 * (ANTLR's SLL parse without building a tree), {@code tree} (the parse tree too) and
 * {@code ast} (our whole parser: tree, AST, errors). The process's own wall time is the figure;
 * the class prints how many files and tokens it saw so the work cannot be optimised away.
 */
public final class CheckFloorBench {
    public static void main(String[] args) throws IOException {
        String stage = args[0];
        List<Path> files;
        try (Stream<Path> s = Files.walk(Path.of(args[1]))) {
            files = s.filter(p -> p.toString().endsWith(".py") && Files.isRegularFile(p)).collect(Collectors.toList());
        }
        AtomicLong seen = new AtomicLong();
        ThreadLocal<PythonSourceParser> parsers = ThreadLocal.withInitial(PythonSourceParser::new);
        files.parallelStream().forEach(p -> {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            SourceText text = SourceText.decode(bytes);
            if (stage.equals("decode")) {
                seen.addAndGet(text.normalized().length());
                return;
            }
            if (stage.equals("ast")) {
                seen.addAndGet(parsers.get().parse(text).module().body().size());
                return;
            }
            PythonLexer lexer = new PythonLexer(CharStreams.fromString(text.normalized()));
            lexer.removeErrorListeners();
            CommonTokenStream tokens = new CommonTokenStream(lexer);
            tokens.fill();
            seen.addAndGet(tokens.size());
            if (stage.equals("lex")) return;
            PythonParser parser = new PythonParser(tokens);
            parser.removeErrorListeners();
            parser.setErrorHandler(new BailErrorStrategy());
            parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
            parser.setBuildParseTree(stage.equals("tree"));
            try {
                parser.file_input();
            } catch (RuntimeException e) {
                // a file SLL cannot parse: the floor counts what it did until then
            }
        });
        System.out.println(stage + ": " + files.size() + " files, " + seen.get() + " units");
    }
}
