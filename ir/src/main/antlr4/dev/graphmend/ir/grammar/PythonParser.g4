/*
 * Python 3.8-3.13 parser, written for GraphMend.
 *
 * Written for SLL prediction: shared prefixes are left-factored, a statement's start is parsed
 * as an expression and decided on the next token (`=`, `:`, an augmented operator, a newline),
 * argument, subscript, parameter and dict/set lists are written without ordering rules (the
 * AST builder checks them and reports CPython's errors), and targets are parsed as expressions
 * (the builder checks they are assignable and sets their context).
 */
parser grammar PythonParser;

options { tokenVocab = PythonLexer; contextSuperClass = PythonRuleContext; }

// ---------------------------------------------------------------- entry points

file_input : ( NEWLINE | stmt )* EOF ;

/** One statement of a block, for error recovery (the builder parses chunks of tokens). */
single_stmt : stmt EOF ;

// ---------------------------------------------------------------- statements

stmt : compound_stmt | simple_stmts ;

simple_stmts : simple_stmt ( SEMI simple_stmt )* SEMI? NEWLINE ;

simple_stmt
  : expr_stmt
  | type_alias
  | return_stmt
  | import_stmt
  | raise_stmt
  | PASS
  | del_stmt
  | assert_stmt
  | BREAK
  | CONTINUE
  | global_stmt
  | nonlocal_stmt
  ;

// `x`, `x = y = z`, `x += y`, `x: T = y`; the first part decides nothing until the next token
expr_stmt
  : first=star_expressions_or_yield
    ( annotation=annassign
    | augassign rhs_aug=star_expressions_or_yield
    | ( EQUAL star_expressions_or_yield )+
    )?
  ;

annassign : COLON test ( EQUAL star_expressions_or_yield )? ;

augassign
  : PLUSEQUAL | MINEQUAL | STAREQUAL | ATEQUAL | SLASHEQUAL | PERCENTEQUAL | AMPEREQUAL
  | VBAREQUAL | CIRCUMFLEXEQUAL | LEFTSHIFTEQUAL | RIGHTSHIFTEQUAL | DOUBLESTAREQUAL
  | DOUBLESLASHEQUAL
  ;

star_expressions_or_yield : yield_expr | star_expressions ;

type_alias : TYPE name type_params? EQUAL test ;

return_stmt : RETURN star_expressions? ;

raise_stmt : RAISE ( test ( FROM test )? )? ;

del_stmt : DEL del_targets ;
del_targets : star_or_bitor ( COMMA star_or_bitor )* COMMA? ;

assert_stmt : ASSERT test ( COMMA test )? ;

global_stmt : GLOBAL name ( COMMA name )* ;
nonlocal_stmt : NONLOCAL name ( COMMA name )* ;

import_stmt
  : IMPORT dotted_as_name ( COMMA dotted_as_name )*                           # importName
  | FROM import_dots* dotted_name? IMPORT
      ( STAR | LPAR import_as_names COMMA? RPAR | import_as_names )          # importFrom
  ;
import_dots : DOT | ELLIPSIS ;
import_as_names : import_as_name ( COMMA import_as_name )* ;
import_as_name : name ( AS name )? ;
dotted_as_name : dotted_name ( AS name )? ;
dotted_name : name ( DOT name )* ;

compound_stmt
  : if_stmt
  | while_stmt
  | for_stmt
  | try_stmt
  | with_stmt
  | funcdef
  | classdef
  | decorated
  | async_stmt
  | match_stmt
  ;

async_stmt : ASYNC ( funcdef | with_stmt | for_stmt ) ;

if_stmt : IF namedexpr_test COLON block elif_clause* else_clause? ;
elif_clause : ELIF namedexpr_test COLON block ;
else_clause : ELSE COLON block ;

while_stmt : WHILE namedexpr_test COLON block else_clause? ;

for_stmt : FOR targets IN star_expressions COLON block else_clause? ;

try_stmt : TRY COLON block except_clause* else_clause? finally_clause? ;
except_clause : EXCEPT STAR? ( test ( AS name )? )? COLON block ;
finally_clause : FINALLY COLON block ;

// The parenthesised form comes first: `with (a, b):` has two items, as in CPython.
with_stmt
  : WITH LPAR with_item ( COMMA with_item )* COMMA? RPAR COLON block
  | WITH with_item ( COMMA with_item )* COLON block
  ;
with_item : test ( AS star_or_bitor )? ;

funcdef : DEF name type_params? LPAR parameters? RPAR ( RARROW test )? COLON block ;

parameters : param ( COMMA param )* COMMA? ;
param
  : name ( COLON test )? ( EQUAL test )?       # plainParam
  | STAR ( name ( COLON star_or_test )? )?     # starParam
  | DOUBLESTAR name ( COLON test )?            # kwParam
  | SLASH                                      # slashParam
  ;
star_or_test : star_expr | test ;

classdef : CLASS name type_params? ( LPAR arglist? RPAR )? COLON block ;

decorated : decorator+ ( classdef | funcdef | async_stmt ) ;
decorator : AT namedexpr_test NEWLINE ;

block : simple_stmts | NEWLINE INDENT stmt+ DEDENT ;

type_params : LSQB type_param ( COMMA type_param )* COMMA? RSQB ;
type_param
  : name ( COLON test )? ( EQUAL test )?            # typeVar
  | STAR name ( EQUAL star_or_test )?               # typeVarTuple
  | DOUBLESTAR name ( EQUAL test )?                 # paramSpec
  ;

// ---------------------------------------------------------------- match

match_stmt : MATCH subject COLON NEWLINE INDENT case_block+ DEDENT ;
subject : star_named_expression ( COMMA star_named_expression )* COMMA? ;
case_block : CASE patterns ( IF namedexpr_test )? COLON block ;

patterns : pattern ( COMMA pattern )* COMMA? ;  // more than one, or a trailing comma: a sequence
pattern : or_pattern ( AS name )? ;
or_pattern : closed_pattern ( VBAR closed_pattern )* ;
closed_pattern
  : literal_pattern                                                       # literalPattern
  | name_or_attr ( LPAR pattern_args? RPAR )?                             # nameOrClassPattern
  | LPAR pattern_list? RPAR                                               # groupOrTuplePattern
  | LSQB pattern_list? RSQB                                               # listPattern
  | LBRACE mapping_items? RBRACE                                          # mappingPattern
  | STAR name                                                             # starPattern
  ;
literal_pattern
  : MINUS? NUMBER ( ( PLUS | MINUS ) NUMBER )?
  | strings
  | NONE | TRUE | FALSE
  ;
name_or_attr : name ( DOT name )* ;
pattern_list : pattern ( COMMA pattern )* COMMA? ;
pattern_args : pattern_arg ( COMMA pattern_arg )* COMMA? ;
pattern_arg : ( name EQUAL )? pattern ;
mapping_items : mapping_item ( COMMA mapping_item )* COMMA? ;
mapping_item
  : ( literal_pattern | name_or_attr ) COLON pattern
  | DOUBLESTAR name
  ;

// ---------------------------------------------------------------- expressions

star_expressions : star_or_test ( COMMA star_or_test )* COMMA? ;
star_named_expression : star_expr | namedexpr_test ;
star_expr : STAR bitexpr ;

namedexpr_test : test ( COLONEQUAL test )? ;

test
  : disjunction ( IF disjunction ELSE test )?
  | lambdef
  ;

lambdef : LAMBDA lambda_params? COLON test ;
lambda_params : lambda_param ( COMMA lambda_param )* COMMA? ;
lambda_param
  : name ( EQUAL test )?      # lambdaPlainParam
  | STAR name?                # lambdaStarParam
  | DOUBLESTAR name           # lambdaKwParam
  | SLASH                     # lambdaSlashParam
  ;

// Boolean operators, highest precedence first, in one left-recursive rule; the builder
// flattens chains (`a and b and c` is one BoolOp). `not` binds looser than a comparison.
disjunction
  : NOT disjunction                     # notExpr
  | disjunction AND disjunction         # andExpr
  | disjunction OR disjunction          # orExpr
  | comparison                          # comparisonExpr
  ;

comparison : bitexpr ( comp_op bitexpr )* ;
comp_op
  : LESS | GREATER | EQEQUAL | GREATEREQUAL | LESSEQUAL | NOTEQUAL
  | IN | NOT IN | IS | IS NOT
  ;

// Arithmetic and bitwise operators, highest precedence first, in one left-recursive rule: an
// operand costs one rule invocation instead of one per precedence level. A unary operator's
// operand takes only operators that bind tighter (`-x ** y` is `-(x ** y)`).
bitexpr
  : <assoc=right> bitexpr op=DOUBLESTAR bitexpr                             # binaryExpr
  | op=( PLUS | MINUS | TILDE ) bitexpr                                     # unaryExpr
  | bitexpr op=( STAR | SLASH | PERCENT | DOUBLESLASH | AT ) bitexpr        # binaryExpr
  | bitexpr op=( PLUS | MINUS ) bitexpr                                     # binaryExpr
  | bitexpr op=( LEFTSHIFT | RIGHTSHIFT ) bitexpr                           # binaryExpr
  | bitexpr op=AMPER bitexpr                                                # binaryExpr
  | bitexpr op=CIRCUMFLEX bitexpr                                           # binaryExpr
  | bitexpr op=VBAR bitexpr                                                 # binaryExpr
  | await_primary                                                           # primaryExpr
  ;

await_primary : AWAIT? atom trailer* ;

trailer
  : LPAR arglist? RPAR          # callTrailer
  | LSQB subscripts RSQB        # subscriptTrailer
  | DOT name                    # attributeTrailer
  ;

atom
  : name                                        # nameAtom
  | NUMBER                                      # numberAtom
  | strings                                     # stringAtom
  | ( NONE | TRUE | FALSE | ELLIPSIS )          # constantAtom
  | LPAR ( yield_expr | testlist_comp )? RPAR   # parenAtom
  | LSQB testlist_comp? RSQB                    # listAtom
  | LBRACE dict_or_set? RBRACE                  # dictOrSetAtom
  ;

// soft keywords are names everywhere else
name : NAME | MATCH | CASE | TYPE ;

strings : ( STRING | fstring )+ ;

fstring : FSTRING_START fstring_part* FSTRING_END ;
fstring_part : FSTRING_MIDDLE | fstring_field ;
fstring_field
  : LBRACE ( yield_expr | star_expressions ) EQUAL? ( EXCLAMATION name )? ( COLON fstring_spec* )? RBRACE
  ;
fstring_spec : FSTRING_MIDDLE | fstring_field ;

testlist_comp
  : star_named_expression ( comp_for | ( COMMA star_named_expression )* COMMA? )
  ;

// `{a: b, **c}` or `{a, *b}`: the first item decides; the builder checks the rest agree
dict_or_set : dict_or_set_item ( comp_for | ( COMMA dict_or_set_item )* COMMA? ) ;
dict_or_set_item
  : test ( COLON test | COLONEQUAL test )?
  | DOUBLESTAR bitexpr
  | STAR bitexpr
  ;

subscripts : subscript ( COMMA subscript )* COMMA? ;
subscript
  : test ( COLONEQUAL test | COLON test? slice_step? )?
  | COLON test? slice_step?
  | star_expr
  ;
slice_step : COLON test? ;

arglist : argument ( COMMA argument )* COMMA? ;
argument
  : name EQUAL test
  | test ( COLONEQUAL test )? comp_for?
  | STAR test
  | DOUBLESTAR test
  ;

comp_for : ASYNC? FOR targets IN disjunction ( IF disjunction )* comp_for? ;

targets : star_or_bitor ( COMMA star_or_bitor )* COMMA? ;
star_or_bitor : STAR? bitexpr ;

yield_expr : YIELD ( FROM test | star_expressions )? ;
