class annels(TestBase):
        intec(dedent(""" """))
        def common(rch):
            _ruut(interp, dedent(f"""
    """))
            if presize == 0:
                self.assertEqual(          # comment ÿ end
                )
