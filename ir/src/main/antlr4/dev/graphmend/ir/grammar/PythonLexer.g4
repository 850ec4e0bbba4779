/*
 * Python 3.8-3.13 lexer, written for GraphMend.
 *
 * The text is normalised to LF line endings before lexing (SourceText.normalized()).
 * Indentation (INDENT/DEDENT), logical NEWLINEs, bracket depth, and the inside of
 * f-strings (PEP 701: literal parts and format specs) are handled in PythonLexerBase,
 * which scans f-string literal text by hand and hands replacement-field expressions back
 * to these rules. Keywords and soft keywords are their own token types so the parser can
 * decide on token types alone (no predicates in hot decisions).
 */
lexer grammar PythonLexer;

options { superClass = PythonLexerBase; }

tokens { INDENT, DEDENT, FSTRING_MIDDLE, FSTRING_END, ERRORTOKEN }

// ---- keywords ----
FALSE    : 'False';
NONE     : 'None';
TRUE     : 'True';
AND      : 'and';
AS       : 'as';
ASSERT   : 'assert';
ASYNC    : 'async';
AWAIT    : 'await';
BREAK    : 'break';
CLASS    : 'class';
CONTINUE : 'continue';
DEF      : 'def';
DEL      : 'del';
ELIF     : 'elif';
ELSE     : 'else';
EXCEPT   : 'except';
FINALLY  : 'finally';
FOR      : 'for';
FROM     : 'from';
GLOBAL   : 'global';
IF       : 'if';
IMPORT   : 'import';
IN       : 'in';
IS       : 'is';
LAMBDA   : 'lambda';
NONLOCAL : 'nonlocal';
NOT      : 'not';
OR       : 'or';
PASS     : 'pass';
RAISE    : 'raise';
RETURN   : 'return';
TRY      : 'try';
WHILE    : 'while';
WITH     : 'with';
YIELD    : 'yield';

// soft keywords: names everywhere except where the parser gives them meaning
MATCH    : 'match';
CASE     : 'case';
TYPE     : 'type';

// ---- literals ----
// f-strings: only the opening quote is lexed here; PythonLexerBase takes over until the
// matching FSTRING_END.
FSTRING_START : F_PREFIX ( '"""' | '\'\'\'' | '"' | '\'' ) { onFStringStart(); };

STRING
  : STRING_PREFIX? ( LONG_STRING_DQ | LONG_STRING_SQ | SHORT_STRING_DQ | SHORT_STRING_SQ )
  ;

// Only the opening quote of a string that never closes (a terminated one is longer and wins):
// PythonLexerBase consumes the rest, to the end of the line or, when triple-quoted, the file.
UNTERMINATED_STRING
  : STRING_PREFIX? ( '"""' | '\'\'\'' | '"' | '\'' ) { onUnterminatedString(); }
  ;

NUMBER
  : DEC_INTEGER | HEX_INTEGER | OCT_INTEGER | BIN_INTEGER | FLOAT_NUMBER
  | ( FLOAT_NUMBER | DIGIT_PART ) [jJ]
  ;

// digits run into letters or a stray underscore (e.g. `1_`, `0777`, `1abc`): one bad token
BAD_NUMBER
  : [0-9] [0-9a-zA-Z_]* ( '.' [0-9a-zA-Z_]* )? { onBadNumber(); }
  ;

NAME : ID_START ID_CONTINUE* ;

// ---- operators and delimiters ----
LPAR     : '(' { openBracket(); };
RPAR     : ')' { closeBracket(); };
LSQB     : '[' { openBracket(); };
RSQB     : ']' { closeBracket(); };
LBRACE   : '{' { openBracket(); };
RBRACE   : '}' { onCloseBrace(); };
ELLIPSIS : '...';
DOT      : '.';
COMMA    : ',';
COLONEQUAL : ':=' { onColonEqual(); };
COLON    : ':' { onColon(); };
SEMI     : ';';
RARROW   : '->';
PLUS     : '+';
MINUS    : '-';
STAR     : '*';
DOUBLESTAR : '**';
SLASH    : '/';
DOUBLESLASH : '//';
PERCENT  : '%';
AT       : '@';
VBAR     : '|';
AMPER    : '&';
CIRCUMFLEX : '^';
TILDE    : '~';
LEFTSHIFT : '<<';
RIGHTSHIFT : '>>';
LESS     : '<';
GREATER  : '>';
EQEQUAL  : '==';
NOTEQUAL : '!=';
LESSEQUAL : '<=';
GREATEREQUAL : '>=';
EQUAL    : '=' ;
EXCLAMATION : '!';
PLUSEQUAL : '+=';
MINEQUAL : '-=';
STAREQUAL : '*=';
SLASHEQUAL : '/=';
PERCENTEQUAL : '%=';
AMPEREQUAL : '&=';
VBAREQUAL : '|=';
CIRCUMFLEXEQUAL : '^=';
LEFTSHIFTEQUAL : '<<=';
RIGHTSHIFTEQUAL : '>>=';
DOUBLESTAREQUAL : '**=';
DOUBLESLASHEQUAL : '//=';
ATEQUAL  : '@=';

// ---- layout ----
NEWLINE  : '\n' { onNewline(); };
// A backslash joins lines; the next physical line continues this logical line.
// Whitespace is dropped (indentation is measured from the text itself); comments are kept on the
// hidden channel for suppression comments.
LINE_JOIN : '\\' '\n' -> skip;
WS       : [ \t\f]+ -> skip;
COMMENT  : '#' ~'\n'* -> channel(HIDDEN);

// Anything else is one error token, so the parser sees it and reports it in place.
ERROR_CHAR : . ;

// ---- fragments ----
fragment STRING_PREFIX
  : [rRuUbB] | [bB][rR] | [rR][bB]
  ;

fragment F_PREFIX
  : [fF] | [fF][rR] | [rR][fF]
  ;

fragment SHORT_STRING_DQ : '"' ( '\\' . | ~[\\\n"] )* '"' ;
fragment SHORT_STRING_SQ : '\'' ( '\\' . | ~[\\\n'] )* '\'' ;
fragment LONG_STRING_DQ  : '"""' ( '\\' . | ~'\\' )*? '"""' ;
fragment LONG_STRING_SQ  : '\'\'\'' ( '\\' . | ~'\\' )*? '\'\'\'' ;

fragment DEC_INTEGER : [1-9] ( '_'? [0-9] )* | '0' ( '_'? '0' )* ;
fragment HEX_INTEGER : '0' [xX] ( '_'? [0-9a-fA-F] )+ ;
fragment OCT_INTEGER : '0' [oO] ( '_'? [0-7] )+ ;
fragment BIN_INTEGER : '0' [bB] ( '_'? [01] )+ ;
fragment DIGIT_PART  : [0-9] ( '_'? [0-9] )* ;
fragment FLOAT_NUMBER
  : ( DIGIT_PART? '.' DIGIT_PART | DIGIT_PART '.' ) EXPONENT?
  | DIGIT_PART EXPONENT
  ;
fragment EXPONENT : [eE] [+-]? DIGIT_PART ;

// Identifiers are lexed coarsely (any non-ASCII code point) and checked against Python's
// identifier rules when the AST is built; this keeps the DFA small and free of predicates.
fragment ID_START    : [a-zA-Z_] | [\u0080-\u{10FFFF}] ;
fragment ID_CONTINUE : [a-zA-Z0-9_] | [\u0080-\u{10FFFF}] ;
